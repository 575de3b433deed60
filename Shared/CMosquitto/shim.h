#ifndef GUARDIAN_CMOSQUITTO_SHIM_H
#define GUARDIAN_CMOSQUITTO_SHIM_H
#include <mosquitto.h>
#include <mqtt_protocol.h>
#endif
