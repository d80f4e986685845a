// The "C floor" of Scripts/bench-peers: the least work any renderer of a raster-tile map must do, written
// plainly in C against libpng and zlib. It decodes the tiles a view needs from a {z}/{x}/{y}.png folder,
// copies them into one RGBA canvas, and writes the canvas as a PNG at zlib level 6 (libpng's default
// filters). No overlays, no text. A second mode re-encodes an existing PNG's pixels the same way, for
// comparing a PNG's size with what zlib 6 makes of the same pixels.
//
//   png_floor render TILES WIDTH HEIGHT ZOOM CENTER_X CENTER_Y OUT.png   (centre in world units 0…1)
//   png_floor reencode IN.png OUT.png
// Prints "decode_ms encode_ms" on stdout.
#include <math.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

// Reads a PNG into 8-bit RGB (`*channels` 3) or, when it has alpha and `keep_alpha`, RGBA (4); NULL when
// it cannot.
static unsigned char *read_png(const char *path, int *width, int *height, int keep_alpha, int *channels) {
  png_image image;
  memset(&image, 0, sizeof image);
  image.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&image, path)) return NULL;
  *channels = keep_alpha && (image.format & PNG_FORMAT_FLAG_ALPHA) ? 4 : 3;
  image.format = *channels == 4 ? PNG_FORMAT_RGBA : PNG_FORMAT_RGB;
  unsigned char *pixels = malloc(PNG_IMAGE_SIZE(image));
  if (pixels == NULL || !png_image_finish_read(&image, NULL, pixels, 0, NULL)) {
    free(pixels);
    png_image_free(&image);
    return NULL;
  }
  *width = (int)image.width;
  *height = (int)image.height;
  return pixels;
}

static int write_png(const char *path, const unsigned char *pixels, int width, int height, int channels) {
  FILE *file = fopen(path, "wb");
  if (file == NULL) return 0;
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
  png_infop info = png_create_info_struct(png);
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    fclose(file);
    return 0;
  }
  png_init_io(png, file);
  png_set_compression_level(png, 6);
  png_set_IHDR(png, info, width, height, 8, channels == 4 ? PNG_COLOR_TYPE_RGBA : PNG_COLOR_TYPE_RGB,
               PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  for (int y = 0; y < height; y++) png_write_row(png, pixels + (size_t)y * width * channels);
  png_write_end(png, info);
  png_destroy_write_struct(&png, &info);
  return fclose(file) == 0;
}

static int render(int argc, char **argv) {
  if (argc != 9) return 2;
  const char *tiles = argv[2];
  int width = atoi(argv[3]), height = atoi(argv[4]), zoom = atoi(argv[5]);
  double center_x = atof(argv[6]), center_y = atof(argv[7]);
  if (width <= 0 || height <= 0 || width > 20000 || height > 20000 || zoom < 0 || zoom > 24) return 2;
  // A map is opaque: the canvas is RGB, as the tiles are read.
  unsigned char *canvas = calloc((size_t)width * height, 3);
  if (canvas == NULL) return 1;
  double world = 256.0 * (double)(1 << zoom);
  double left = center_x * world - width / 2.0, top = center_y * world - height / 2.0;
  long n = 1L << zoom;
  double started = now_ms();
  for (long ty = (long)floor(top / 256); ty * 256 < top + height; ty++) {
    if (ty < 0 || ty >= n) continue;
    for (long tx = (long)floor(left / 256); tx * 256 < left + width; tx++) {
      long wrapped = ((tx % n) + n) % n;
      char path[4096];
      snprintf(path, sizeof path, "%s/%d/%ld/%ld.png", tiles, zoom, wrapped, ty);
      int tw, th, channels;
      unsigned char *tile = read_png(path, &tw, &th, 0, &channels);
      if (tile == NULL) {
        fprintf(stderr, "png_floor: missing %s\n", path);
        continue;
      }
      int ox = (int)lround(tx * 256 - left), oy = (int)lround(ty * 256 - top);
      for (int y = 0; y < th; y++) {
        int cy = oy + y;
        if (cy < 0 || cy >= height) continue;
        int x0 = ox < 0 ? -ox : 0, x1 = ox + tw > width ? width - ox : tw;
        if (x1 > x0)
          memcpy(canvas + ((size_t)cy * width + ox + x0) * 3, tile + ((size_t)y * tw + x0) * 3,
                 (size_t)(x1 - x0) * 3);
      }
      free(tile);
    }
  }
  double decoded = now_ms();
  if (!write_png(argv[8], canvas, width, height, 3)) return 1;
  printf("%.2f %.2f\n", decoded - started, now_ms() - decoded);
  free(canvas);
  return 0;
}

static int reencode(int argc, char **argv) {
  if (argc != 4) return 2;
  int width, height, channels;
  double started = now_ms();
  unsigned char *pixels = read_png(argv[2], &width, &height, 1, &channels);
  if (pixels == NULL) return 1;
  double decoded = now_ms();
  if (!write_png(argv[3], pixels, width, height, channels)) return 1;
  printf("%.2f %.2f\n", decoded - started, now_ms() - decoded);
  free(pixels);
  return 0;
}

int main(int argc, char **argv) {
  int code = 2;
  if (argc > 1 && strcmp(argv[1], "render") == 0) code = render(argc, argv);
  if (argc > 1 && strcmp(argv[1], "reencode") == 0) code = reencode(argc, argv);
  if (code == 2) fprintf(stderr, "usage: png_floor render TILES W H ZOOM CX CY OUT | reencode IN OUT\n");
  return code;
}
