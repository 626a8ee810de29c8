/* pumma_fenv.h -- now in pumma_base.h (one header per layer); this
 * forwarding header goes once every file includes its layer's. */
#ifndef PUMMA_FENV_H
#define PUMMA_FENV_H
#include "pumma_base.h"
#endif
