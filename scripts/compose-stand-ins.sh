#!/usr/bin/env bash
# The upstream images compose/ names (debian:bookworm-slim, eclipse-mosquitto:2.0, nginx:1.27-alpine):
# pulled where a registry answers, else a stand-in of the same name made from Debian bookworm with
# mmdebstrap, which behaves as the upstream image does where Guardian relies on it. A stand-in is
# made once and kept in podman's storage; it is made again only when its recipe below changes (the
# recipe's hash is the image's label guardian.stand-in). Prints one line per image: pulled, present,
# or stand-in. Used by scripts/compose-test.sh (podman must be configured already).
set -euo pipefail

work="$(mktemp -d /var/tmp/guardian-stand-in.XXXXXX)"
trap 'rm -rf "$work"' EXIT

# recipe NAME: the packages, the hook run in the root file system, and the image's settings.
recipe() {
  case "$1" in
    docker.io/library/debian:bookworm-slim)
      # Upstream's apt settings: no package caches or downloaded packages kept in a layer.
      packages=""
      customize='
        printf "%s\n" "DPkg::Post-Invoke { \"rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true\"; };" \
          "APT::Update::Post-Invoke { \"rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true\"; };" \
          "Dir::Cache::pkgcache \"\";" "Dir::Cache::srcpkgcache \"\";" > "$1"/etc/apt/apt.conf.d/docker-clean
        echo "Acquire::Languages \"none\";" > "$1"/etc/apt/apt.conf.d/docker-no-languages
        rm -rf "$1"/var/lib/apt/lists/* "$1"/var/cache/apt/*.bin'
      changes=('CMD ["bash"]')
      ;;
    docker.io/library/eclipse-mosquitto:2.0)
      # Upstream: mosquitto 2.0 and its clients, user mosquitto = uid/gid 1883, the dynamic-security
      # plugin at /usr/lib/, /mosquitto/{config,data,log}; its entrypoint, as root, chowns /mosquitto
      # to 1883 (`|| true`: read-only mounts stay as they are) and execs mosquitto, which drops to
      # 1883 before it opens certificates and plugin files.
      packages="mosquitto,mosquitto-clients"
      customize='
        chroot "$1" groupmod -g 1883 mosquitto
        chroot "$1" usermod -u 1883 -g 1883 mosquitto
        ln -s /usr/lib/x86_64-linux-gnu/mosquitto_dynamic_security.so "$1"/usr/lib/mosquitto_dynamic_security.so
        mkdir -p "$1"/mosquitto/config "$1"/mosquitto/data "$1"/mosquitto/log
        printf "%s\n" "#!/bin/sh" "set -e" "if [ \"\$(id -u)\" = 0 ]; then" \
          "  [ -d /mosquitto ] && chown -R mosquitto:mosquitto /mosquitto || true" "fi" "exec \"\$@\"" > "$1"/docker-entrypoint.sh
        chmod 755 "$1"/docker-entrypoint.sh
        chroot "$1" chown -R 1883:1883 /mosquitto
        rm -rf "$1"/var/lib/apt/lists/* "$1"/var/cache/apt/*.bin'
      changes=('ENTRYPOINT ["/docker-entrypoint.sh"]' 'CMD ["/usr/sbin/mosquitto","-c","/mosquitto/config/mosquitto.conf"]'
               'VOLUME /mosquitto/data' 'VOLUME /mosquitto/log' 'EXPOSE 1883')
      ;;
    docker.io/library/nginx:1.27-alpine)
      # Upstream: nginx in the foreground, reading /etc/nginx/conf.d/*.conf, logging to stdout/stderr;
      # Alpine's busybox gives it wget (console-tls's healthcheck).
      packages="nginx-light,wget"
      customize='
        rm -f "$1"/etc/nginx/sites-enabled/default
        ln -sf /dev/stdout "$1"/var/log/nginx/access.log
        ln -sf /dev/stderr "$1"/var/log/nginx/error.log
        rm -rf "$1"/var/lib/apt/lists/* "$1"/var/cache/apt/*.bin'
      changes=('CMD ["nginx","-g","daemon off;"]' 'STOPSIGNAL SIGQUIT' 'EXPOSE 80')
      ;;
    *) echo "compose-stand-ins: no recipe for $1" >&2; return 1 ;;
  esac
}

# As Docker's debian images: /usr merged by mmdebstrap's hook (usr-is-merged, not the usrmerge
# package, which would bring perl); as their -slim: no manuals, documentation (but the copyrights)
# or translations.
merged_usr=--hook-dir=/usr/share/mmdebstrap/hooks/merged-usr
slim='find "$1"/usr/share/doc -type f ! -name copyright -delete
  rm -rf "$1"/usr/share/man/* "$1"/usr/share/info/* "$1"/usr/share/locale/* "$1"/usr/share/lintian/*'

for image in docker.io/library/debian:bookworm-slim docker.io/library/eclipse-mosquitto:2.0 docker.io/library/nginx:1.27-alpine; do
  recipe "$image"
  hash="$( { echo "$merged_usr"; echo "$slim"; echo "$packages"; echo "$customize"; printf '%s\n' "${changes[@]}"; } | sha256sum | cut -c1-16)"
  old=""
  if podman image exists "$image"; then
    old="$(podman image inspect --format '{{.Id}}' "$image")"
    label="$(podman image inspect --format '{{index .Labels "guardian.stand-in"}}' "$image" 2>/dev/null || true)"
    if [ -z "$label" ] || [ "$label" = "<no value>" ]; then echo "image $image: present (upstream)"; continue; fi
    [ "$label" = "$hash" ] && { echo "image $image: STAND-IN (Debian bookworm, made earlier with this recipe)"; continue; }
  fi
  if timeout 60 podman pull -q "$image" >/dev/null 2>"$work/pull.err"; then
    echo "image $image: pulled"
    continue
  fi
  echo "image $image: cannot be pulled ($(tail -1 "$work/pull.err" | cut -c1-100)); making a STAND-IN from Debian bookworm"
  include=()
  [ -n "$packages" ] && include=(--include="$packages")
  mmdebstrap --quiet --variant=minbase "$merged_usr" "${include[@]}" --customize-hook="$customize" --customize-hook="$slim" \
    bookworm "$work/rootfs.tar" 2>"$work/mmdebstrap.err" || { cat "$work/mmdebstrap.err" >&2; exit 1; }
  change_args=(--change "LABEL guardian.stand-in=$hash")
  for c in "${changes[@]}"; do change_args+=(--change "$c"); done
  podman import -q "${change_args[@]}" "$work/rootfs.tar" "$image" >/dev/null
  rm -f "$work/rootfs.tar"
  [ -n "$old" ] && podman rmi "$old" >/dev/null 2>&1 || true
  echo "image $image: STAND-IN made ($(podman image inspect --format '{{.Size}}' "$image" | numfmt --to=iec))"
done
