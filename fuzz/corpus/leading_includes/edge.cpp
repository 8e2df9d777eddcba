#include <a.h> /* x
 y */
#include "b.h"
#include_next <c.h>
