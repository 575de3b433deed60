#ifndef GUARDIAN_CSVM_SHIM_H
#define GUARDIAN_CSVM_SHIM_H
#include <libsvm/svm.h>
#endif
