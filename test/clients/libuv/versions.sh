# SPDX-License-Identifier: MIT
# versions.sh -- which libuv release the libuv client kit works on; sourced
# by ./fetch, ./build and ./run after ../common.sh.
#
# LIBUV_KIT names the release (default 1.44):
#   1.44  libuv 1.44.2's suite from Debian 12's libuv1 source; the real
#         configuration is Debian's libuv1-dev (/usr/include, -luv, the
#         system's libuv.so.1) on Debian 12, and elsewhere (Debian 13)
#         tools/install-libuv-refs's build of that source
#         ($PHASELOOP_ORACLE_DIR/libuv-1.44)
#   1.50  libuv 1.50.0's suite from Debian 13's libuv1 source (1.50.0-2);
#         the real configuration is tools/install-libuv-refs's build of the
#         same source ($PHASELOOP_ORACLE_DIR/libuv-1.50: its headers and
#         libuv.so.1)
# (libuv 1.53.0's suite would come from sid's libuv1 source, which the
# archive lists but does not serve: its .dsc and tarballs answer 404.)
#
# Sets:
#   KIT_VERSION       the release (1.44.2, 1.50.0)
#   KIT_TOP           the kit's directory under $CLIENTS_BUILD (libuv,
#                     libuv-1.50)
#   KIT_SUITE         the Debian release whose source package is fetched
#                     (empty: the host's)
#   KIT_SPEC          apt-get source's argument (libuv1=VERSION)
#   KIT_ORIG, KIT_ORIG_SHA256   the upstream tarball and its sha256, as
#                     recorded from the archive
#   KIT_REAL_CFLAGS, KIT_REAL_LIBS, KIT_REAL_HEADERS   how the real
#                     configuration builds (the headers: for make's
#                     dependencies)
#   KIT_REAL_LIB      the real libuv.so.1 the real runs must map
#   KIT_COMPAT_FLAGS  the flags that build phaseloop's uv.h for the release
#   KIT_EXCLUDED      the compat exclusions file (see excluded-compat.txt)
#   KIT_PROFILE       PHASELOOP_PROFILE for the phaseloop configurations:
#                     the drop-in and compat behave as the release

case ${LIBUV_KIT:-1.44} in
  1.44 | 1.44.2)
    KIT_VERSION=1.44.2
    KIT_TOP=$CLIENTS_BUILD/libuv
    # Every Debian 12 revision of libuv1 1.44.2 uses this tarball
    # (1,308,776 bytes), recorded on 2026-11-24 from libuv1 1.44.2-1+deb12u1.
    KIT_ORIG=libuv1_1.44.2.orig.tar.gz
    KIT_ORIG_SHA256=d79b4b06ef04be85fb890bf39d55942cc64c2e15fd14eaa32dae5dce94485484
    KIT_COMPAT_FLAGS=
    KIT_EXCLUDED=$CLIENTS_REPO/test/clients/libuv/excluded-compat.txt
    KIT_PROFILE=libuv-1.44.2
    case $(pkg-config --modversion libuv 2> /dev/null) in
      1.44.*)
        # Debian 12: the system's libuv is the reference.
        KIT_SUITE=
        # The Debian version of the installed libuv1-dev, so that the tests
        # match the headers and library the real configuration uses
        # (LIBUV_DEB_VERSION overrides; ./fetch falls back to the release's
        # current one).
        KIT_SPEC=libuv1${LIBUV_DEB_VERSION:+=$LIBUV_DEB_VERSION}
        if [ -z "${LIBUV_DEB_VERSION:-}" ]; then
          kit_v=$(dpkg-query -W -f='${source:Version}' libuv1-dev 2> /dev/null || true)
          [ -z "$kit_v" ] || KIT_SPEC=libuv1=$kit_v
        fi
        KIT_REAL_CFLAGS=
        KIT_REAL_LIBS=-luv
        KIT_REAL_HEADERS=$(echo /usr/include/uv.h /usr/include/uv/*.h)
        KIT_REAL_LIB=$(readlink -f "$(ldconfig -p | awk '/libuv\.so\.1 .*x86-64/ { print $NF; exit }')" 2> /dev/null || true)
        ;;
      *)
        # Elsewhere (Debian 13): Debian 12's source, and
        # tools/install-libuv-refs's build of it as the reference.
        KIT_SUITE=bookworm
        KIT_SPEC=libuv1=1.44.2-1+deb12u1
        kit_ref=${PHASELOOP_ORACLE_DIR:-$CLIENTS_REPO/.oracle}/libuv-1.44
        KIT_REAL_CFLAGS=-I$kit_ref/include
        KIT_REAL_LIBS="-L$kit_ref/lib -luv -Wl,-rpath,$kit_ref/lib"
        KIT_REAL_HEADERS=$(echo "$kit_ref"/include/uv.h "$kit_ref"/include/uv/*.h)
        KIT_REAL_LIB=$(readlink -f "$kit_ref/lib/libuv.so.1" 2> /dev/null || true)
        ;;
    esac
    ;;
  1.50 | 1.50.0)
    KIT_VERSION=1.50.0
    KIT_TOP=$CLIENTS_BUILD/libuv-1.50
    KIT_SUITE=trixie
    KIT_SPEC=libuv1=1.50.0-2
    # libuv1 1.50.0-2's upstream tarball, recorded on 2026-11-25.
    KIT_ORIG=libuv1_1.50.0.orig.tar.gz
    KIT_ORIG_SHA256=ec9de6ecf2a780fd2afb3b007947d2cd57c3bb17f3b9e721a66774980d35cd4d
    kit_ref=${PHASELOOP_ORACLE_DIR:-$CLIENTS_REPO/.oracle}/libuv-1.50
    KIT_REAL_CFLAGS=-I$kit_ref/include
    KIT_REAL_LIBS="-L$kit_ref/lib -luv -Wl,-rpath,$kit_ref/lib"
    KIT_REAL_HEADERS=$(echo "$kit_ref"/include/uv.h "$kit_ref"/include/uv/*.h)
    KIT_REAL_LIB=$(readlink -f "$kit_ref/lib/libuv.so.1" 2> /dev/null || true)
    KIT_COMPAT_FLAGS="-DPHASELOOP_UV_VERSION_MINOR=50 -DPHASELOOP_UV_VERSION_PATCH=0"
    KIT_EXCLUDED=$CLIENTS_REPO/test/clients/libuv/excluded-compat-1.50.txt
    KIT_PROFILE=libuv-1.50.0
    ;;
  *)
    die "LIBUV_KIT=${LIBUV_KIT}: the kit runs libuv 1.44 or 1.50's suite (1.53's source is not served by the archive)"
    ;;
esac

# kit_need_real: the real configuration's library is there.
kit_need_real() {
  [ -n "$KIT_REAL_LIB" ] && [ -f "$KIT_REAL_LIB" ] || case $KIT_VERSION in
    1.44.2) [ -n "$KIT_SUITE" ] || die "no system libuv.so.1: apt-get install libuv1-dev"
            die "no real libuv $KIT_VERSION in $kit_ref: run tools/install-libuv-refs" ;;
    *) die "no real libuv $KIT_VERSION in $kit_ref: run tools/install-libuv-refs" ;;
  esac
  for h in $KIT_REAL_HEADERS; do
    [ -f "$h" ] || die "no $h: the real configuration builds against it"
  done
}
