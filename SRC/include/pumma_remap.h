/* pumma_remap.h -- now in pumma_driver.h (one header per layer); this
 * forwarding header goes once every file includes its layer's. */
#ifndef PUMMA_REMAP_H
#define PUMMA_REMAP_H
#include "pumma_driver.h"
#endif
