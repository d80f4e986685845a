import ImageCodecs
#!/usr/bin/env python3
"""Regenerates the image fixtures for Tests/TilesTests/ImageDecoderTests.swift.

Needs Pillow (`pip install pillow`) only to regenerate; the tests read the committed files.
Each 32x32 image has four 16x16 quadrants: red top-left, green top-right, blue bottom-left and
white bottom-right (half transparent in the images with alpha).
"""
from PIL import Image

RED, GREEN, BLUE, WHITE = (200, 30, 40), (40, 180, 60), (30, 60, 200), (250, 250, 250)


def quadrants(mode="RGB", alpha=None):
    image = Image.new("RGBA", (32, 32))
    for (x, y), colour in zip([(0, 0), (16, 0), (0, 16), (16, 16)], [RED, GREEN, BLUE, WHITE]):
        a = alpha if (alpha is not None and (x, y) == (16, 16)) else 255
        image.paste(colour + (a,), (x, y, x + 16, y + 16))
    return image.convert(mode) if mode != "RGBA" else image


quadrants().save("quadrants.png")
quadrants("RGBA", alpha=128).save("quadrants-alpha.png")
quadrants().save("baseline.jpg", quality=95)
quadrants().save("progressive.jpg", quality=95, progressive=True)
quadrants("L").save("grayscale.jpg", quality=95)
quadrants("CMYK").save("cmyk.jpg", quality=95)
quadrants().save("lossy.webp", quality=90)
quadrants("RGBA", alpha=128).save("lossy-alpha.webp", quality=90)
quadrants("RGBA", alpha=128).save("lossless-alpha.webp", lossless=True)
Image.new("RGB", (256, 256), (120, 170, 90)).save("tile-256.jpg", quality=90)
Image.new("RGB", (256, 256), (120, 170, 90)).save("tile-256.webp", quality=90)
