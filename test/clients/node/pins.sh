# SPDX-License-Identifier: MIT
# pins.sh -- which Debian Node.js the node kit runs, per Debian release;
# sourced by ./fetch, ./run and lib/mounts. The release is the machine's
# (VERSION_CODENAME of /etc/os-release; NODE_KIT_RELEASE overrides): a
# kit tests the Node that release ships, on the libuv that release ships
# (its real libuv, the reference) and on phaseloop's drop-in.
#
# Sets:
#   NODE_RELEASE     bookworm | trixie
#   NODE_VERSION     the Debian version of nodejs and libnode
#   NODE_UPSTREAM    Node's own version
#   LIBNODE          libnode's soname (the file the .deb has)
#   DEBS             "package version sha256" lines: nodejs, libnode and
#                    the node-* packages libnode reads at startup
#                    (its Depends) with theirs
#   SOURCE_VERSION   the nodejs source package whose test/ is run
#   SOURCES          "file sha256" lines: that source package
#   ORIG, DEBIAN_TAR its upstream tarball and its debian/ tarball
#   SUITES           the archive suites the private apt configuration lists
#   SYSTEM_LIBS      system libraries libnode links (besides libc, libstdc++,
#                    libgcc), installed with the system's apt when missing
#   REF_UV_PKG, REF_UV_VERSION   the release's libuv package and its
#                    upstream version (the reference configuration's
#                    libuv.so.1)
# The sha256 of each file is the one the release's signed index gives,
# recorded on the date named; when the archive moves to a newer revision,
# fetch says so and the pins here are updated.

NODE_RELEASE=${NODE_KIT_RELEASE:-$(. /etc/os-release && echo "${VERSION_CODENAME:-}")}
case $NODE_RELEASE in
  bookworm)
    # Debian 12. bookworm-security carries ~deb12u3 binaries, but its
    # source package is not served by the archive mirror these machines
    # reach; binaries and tests come from the same source version.
    NODE_VERSION=18.20.4+dfsg-1~deb12u2
    NODE_UPSTREAM=18.20.4
    SOURCE_VERSION=$NODE_VERSION
    LIBNODE=libnode.so.108
    DEBS="
libnode108            $NODE_VERSION                         49c281c5fa259fa453a257e9cb0fcfb4385917ee21008ef1acbb5de2a9bb88a6
nodejs                $NODE_VERSION                         ed733bcac17b24e6a1642f0dc2b71ae95513388197395a7736940df6c3c24cfc
node-acorn            8.8.1+ds+~cs25.17.7-2                 5c6814cf6536892b3a93cc72a0a3792beb0d3f6be3d69f499ca7d764583479a9
node-cjs-module-lexer 1.2.2+dfsg-5                          8393ae2e6b596068bd13b165a678fb33a3d5e58de6571fa5370d30b20b7b3e5a
node-undici           5.15.0+dfsg1+~cs20.10.9.3-1+deb12u4   78ec8918d63e365bbdec6edd35bebec9e20cc931f084f24e8673badf191d100c
node-busboy           1.6.0+~cs2.6.0-2                      50934c61be2a090131f16420b6422d5c03d840a8595fab36b29eb86c46928713
node-xtend            4.0.2-3                               c64e37fbea40de012b59adbfa61e703b52c12713f34cbfd2d4049ebcc549f270
"
    SOURCES="
nodejs_18.20.4+dfsg-1~deb12u2.dsc            11573b64900df22b3e009a0fbe6bd2746e11946cd61a64aa61284cbc6ea1eee4
nodejs_18.20.4+dfsg.orig.tar.xz              6ce58062c71eae37d9c5ac31eeaeff9c2d48561d21c2849179d056c9c1bd9ebc
nodejs_18.20.4+dfsg.orig-ada.tar.xz          b58fd8b7ef61255b66d42b66e32e74ccdde61c4e02facd6b5a566618e32e993e
nodejs_18.20.4+dfsg.orig-types-node.tar.xz   5bd8293f0adfb7bc744e3071bdbd184fd02f973931396ba816ff61514ecd62a9
nodejs_18.20.4+dfsg-1~deb12u2.debian.tar.xz  9740da86ce7f8c554b7e71308df9903834c2aaadca01c76ac49d0b895f2afa52
"
    ORIG=nodejs_18.20.4+dfsg.orig.tar.xz
    DEBIAN_TAR=nodejs_18.20.4+dfsg-1~deb12u2.debian.tar.xz
    SUITES="bookworm bookworm-updates bookworm-security"
    SYSTEM_LIBS="libbrotli1 libc-ares2 libicu72 libnghttp2-14 libssl3 zlib1g"
    REF_UV_PKG=libuv1
    REF_UV_VERSION=1.44.2
    ;;
  trixie)
    # Debian 13, recorded on 2026-12-02 from trixie's signed index. The
    # archive serves deb13u3's binaries but not its source (the .dsc and
    # debian.tar.xz answer 404, also on debian-security); the tests come
    # from the newest source it serves, deb13u2 (in the pool, no longer in
    # the index: its files' sha256 are those of its .dsc, recorded the same
    # day). deb13u3 only adds security fixes (permission model, TLS, HTTP/2:
    # its changelog), outside the kit's test groups.
    NODE_VERSION=20.19.2+dfsg-1+deb13u3
    NODE_UPSTREAM=20.19.2
    SOURCE_VERSION=20.19.2+dfsg-1+deb13u2
    LIBNODE=libnode.so.115
    DEBS="
libnode115            $NODE_VERSION                         b459856250d6877cb528526aa3066eff78867fb041a8e8920a867b3f1bb8332f
nodejs                $NODE_VERSION                         2f30b056911388a3abf27d015eda858bf5b76abfeb7f43b82c3cc35231f1c8bc
node-acorn            8.8.1+ds+~cs25.17.7-2                 5c6814cf6536892b3a93cc72a0a3792beb0d3f6be3d69f499ca7d764583479a9
node-cjs-module-lexer 1.2.3+dfsg-1                          db5edbd534306c633cd8c0639adb9fc723ec5c6961eee9f9721475db74474959
node-undici           7.3.0+dfsg1+~cs24.12.11-1             7f10cf9c79cf4dae6c1117ca1c8181d2d4d184b82bbd59dd0eeec554994161c4
node-minimatch        9.0.3-6                               732998416eadffcdbf4e7e697200eb28d42963d1540fff2a3b485b5499805db6
node-brace-expansion  2.0.1+~1.1.0-2                        c06d940bf95617cfd5c5ccbf0bf2ea864f41f36f317f21b4c8b21a3bf9668821
node-balanced-match   2.0.0-1                               98a1c466bff6baf6780c4b765ec665e684424bf7907439939b5fb1160ede039c
node-xtend            4.0.2-3                               c64e37fbea40de012b59adbfa61e703b52c12713f34cbfd2d4049ebcc549f270
"
    SOURCES="
nodejs_20.19.2+dfsg-1+deb13u2.dsc            a3bff34eff175567f923f5936e03c06c416841d92a0597aed13a58e48ccb5ae7
nodejs_20.19.2+dfsg.orig.tar.xz              5e5559381ad031d245a8efa403458abbb73755f74c3e6380f185a4dd342b7949
nodejs_20.19.2+dfsg.orig-ada.tar.xz          26deff017c505b316f2498aaf293c896f4ab92b5349b367cf21fe14fa2cbd1e1
nodejs_20.19.2+dfsg.orig-types-node.tar.xz   cacb4b47fe0ad9250294545a33e5097c50b0a86f7bd1862cd73f99385f69a174
nodejs_20.19.2+dfsg-1+deb13u2.debian.tar.xz  a13e879865bd61c698ad6fdeeb4b18bef46c7a6f6ce5921c70a0f97eb05e266c
"
    ORIG=nodejs_20.19.2+dfsg.orig.tar.xz
    DEBIAN_TAR=nodejs_20.19.2+dfsg-1+deb13u2.debian.tar.xz
    SUITES="trixie trixie-updates trixie-security"
    SYSTEM_LIBS="libbrotli1 libcares2 libicu76 libnghttp2-14 libssl3t64 zlib1g"
    REF_UV_PKG=libuv1t64
    REF_UV_VERSION=1.50.0
    ;;
  '') echo "node kit: cannot tell the Debian release from /etc/os-release" >&2; exit 2 ;;
  *) echo "node kit: no Node pinned for Debian '$NODE_RELEASE' (bookworm and trixie are; see test/clients/node/pins.sh)" >&2; exit 2 ;;
esac
