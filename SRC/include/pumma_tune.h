/* pumma_tune.h -- now in pumma_model.h (one header per layer); this
 * forwarding header goes once every file includes its layer's. */
#ifndef PUMMA_TUNE_H
#define PUMMA_TUNE_H
#include "pumma_model.h"
#endif
