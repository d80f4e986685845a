#ifndef CRASTER_H
#define CRASTER_H
#include <stddef.h>
#include <stdint.h>

/// Lays the premultiplied ARGB pixel `color` through an 8-bit coverage mask over premultiplied ARGB pixels
/// (Cairo's image format), columns `first`…`last` of rows `top` up to `bottom` (mask and pixels indexed
/// alike), and zeroes those mask bytes. The arithmetic is pixman's for OVER of a solid source through an
/// a8 mask (each product rounded as x·a/255, sums saturated), so the bytes are Cairo's; the untouched
/// mask is skipped sixteen bytes at a time.
void craster_lay_solid(uint32_t color, uint8_t *mask, ptrdiff_t mask_stride, uint8_t *pixels,
                       ptrdiff_t pixel_stride, int first, int last, int top, int bottom);

#endif
