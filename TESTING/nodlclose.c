/*
 * nodlclose.c -- preloaded into the processes of `make check-asan`
 * (run-asan): dlclose does nothing.
 *
 * Open MPI loads its components (mca_*.so, and PMIx through one of them)
 * with dlopen and unloads them in MPI_Finalize. LeakSanitizer reports at
 * exit, after that: the frames of what those components allocated and
 * never freed then belong to no loaded object, so lsan.supp cannot name
 * them. Kept loaded, every frame names its library.
 */
int dlclose(void *handle)
{
    (void)handle;
    return 0;
}
