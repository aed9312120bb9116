/* Calls an AOT launcher (add_aot.h) where the CUDA driver may be missing. */
#include "add_aot.h"
#include <stdio.h>

int main(void) {
  int load = add_aot_load();
  int launch = add_aot(0, 1, 1, 1, 0, 0, 0, 16);
  printf("load %d launch %d\n", load, launch);
  return 0;
}
