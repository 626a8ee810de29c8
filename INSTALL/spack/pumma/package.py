# Spack recipe for pumma (CMake build: CMakeLists.txt, doc/install.md).
#
# NOT RUN: Spack cannot be run on the machine pumma is developed on, so this
# recipe is untested. It keeps to what Spack's packaging guide documents
# (CMakePackage, depends_on, variant, cmake_args with self.define and
# self.define_from_variant, spec[...].libs); check it with
# `spack style` and `spack install pumma` before relying on it.
#
# To use it: copy this directory into a Spack package repository of your
# own (`spack repo create`, then <repo>/packages/pumma/package.py) and fill
# in the three places marked PLACEHOLDER. With Spack 1.x, whose packages
# import their build system from the builtin repository, replace the import
# line by
#     from spack_repo.builtin.build_systems.cmake import CMakePackage
#     from spack.package import *

from spack.package import *


class Pumma(CMakePackage):
    """pumma: ScaLAPACK's PSGEMM, PDGEMM, PCGEMM and PZGEMM computed with the
    PUMMA algorithms (Choi, Dongarra and Walker), a drop-in library to link
    before ScaLAPACK or to preload."""

    homepage = "https://example.invalid/pumma"  # PLACEHOLDER: the project's page
    url = "https://example.invalid/pumma-0.5.0.tar.gz"  # PLACEHOLDER: a release tarball

    license("BSD-3-Clause")

    # PLACEHOLDER: the tarball's checksum, from `spack checksum pumma 0.5.0`
    version("0.5.0", sha256="0000000000000000000000000000000000000000000000000000000000000000")

    variant("shared", default=True, description="Build libpumma.so (pumma::pumma); else only libpumma.a")
    variant("tools", default=True, description="Install bin/pumma-* (pumma-info, pumma-tune)")

    depends_on("c", type="build")
    depends_on("fortran", type="build")  # the module pumma.mod
    depends_on("cmake@3.18:", type="build")
    depends_on("mpi")
    depends_on("scalapack")
    depends_on("blas")

    def cmake_args(self):
        spec = self.spec
        return [
            # the MPI FindMPI is to use: the one ScaLAPACK was built with
            self.define("MPI_C_COMPILER", spec["mpi"].mpicc),
            self.define("MPI_Fortran_COMPILER", spec["mpi"].mpifc),
            # given, not searched: exactly the libraries Spack chose
            self.define("SCALAPACK_LIBRARIES", spec["scalapack"].libs.joined(";")),
            self.define("BLAS_LIBRARIES", spec["blas"].libs.joined(";")),
            self.define_from_variant("PUMMA_BUILD_SHARED", "shared"),
            self.define_from_variant("PUMMA_BUILD_TOOLS", "tools"),
        ]
