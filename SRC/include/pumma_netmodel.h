/* pumma_netmodel.h -- now in pumma_model.h (one header per layer); this
 * forwarding header goes once every file includes its layer's. */
#ifndef PUMMA_NETMODEL_H
#define PUMMA_NETMODEL_H
#include "pumma_model.h"
#endif
