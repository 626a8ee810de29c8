/* pumma_exec.h -- now in pumma_model.h (one header per layer); this
 * forwarding header goes once every file includes its layer's. */
#ifndef PUMMA_EXEC_H
#define PUMMA_EXEC_H
#include "pumma_model.h"
#endif
