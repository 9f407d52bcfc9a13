#!/usr/bin/env python3
"""Generates the JPEG fixtures of JPEGTests: small images made here, encoded by Pillow (libjpeg-turbo), each written
as `<name>.jpg` beside `<name>.png`, Pillow's own decoding of it as RGBA (libjpeg-turbo's defaults: accurate integer
IDCT, fancy upsampling), the reference Decant must match within rounding.

Run from anywhere: `python3 Tests/DecantImageTests/jpeg_fixtures.py` (needs `pip install pillow numpy`).
"""
import io
import os

import numpy as np
from PIL import Image, ImageOps

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "Fixtures", "jpeg")


def picture(width, height, seed, mode="RGB"):
    """Gradients, a diagonal edge and noise, so that every coefficient band and the chroma edges are exercised."""
    rng = np.random.default_rng(seed)
    y, x = np.mgrid[0:height, 0:width].astype(np.float64)
    red = 255 * x / max(width - 1, 1)
    green = 255 * y / max(height - 1, 1)
    blue = np.where(x + y > (width + height) / 2, 220.0, 30.0)
    rgb = np.stack([red, green, blue], axis=-1) + rng.normal(0, 25, (height, width, 3))
    image = Image.fromarray(np.clip(rgb, 0, 255).astype(np.uint8), "RGB")
    return image.convert(mode) if mode != "RGB" else image


def save(name, image, **options):
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", **options)
    data = buffer.getvalue()
    with open(os.path.join(HERE, name + ".jpg"), "wb") as file:
        file.write(data)
    Image.open(io.BytesIO(data)).convert("RGBA").save(os.path.join(HERE, name + ".png"), optimize=True)


def main():
    os.makedirs(HERE, exist_ok=True)
    for old in os.listdir(HERE):
        os.remove(os.path.join(HERE, old))
    base = picture(48, 40, 1)
    save("q90_444", base, quality=90, subsampling=0)
    save("q90_422", base, quality=90, subsampling=1)
    save("q90_420", base, quality=90, subsampling=2)
    save("q10_420", base, quality=10, subsampling=2)
    save("q95_444", base, quality=95, subsampling=0)
    save("gray", picture(48, 40, 2, "L"), quality=85)
    save("progressive_420", base, quality=85, subsampling=2, progressive=True)
    save("progressive_444", base, quality=85, subsampling=0, progressive=True)
    save("progressive_gray", picture(40, 24, 3, "L"), quality=85, progressive=True)
    save("progressive_odd_17x9", picture(17, 9, 4), quality=80, subsampling=2, progressive=True)
    save("optimized_420", base, quality=75, subsampling=2, optimize=True)
    save("restart_420", base, quality=80, subsampling=2, restart_marker_blocks=3)
    save("restart_progressive", base, quality=80, subsampling=2, progressive=True, restart_marker_rows=1)
    save("odd_17x9_420", picture(17, 9, 5), quality=90, subsampling=2)
    save("odd_17x9_422", picture(17, 9, 6), quality=90, subsampling=1)
    save("odd_17x9_444", picture(17, 9, 7), quality=90, subsampling=0)
    save("odd_33x1_420", picture(33, 1, 8), quality=90, subsampling=2)
    save("odd_1x33_420", picture(1, 33, 9), quality=90, subsampling=2)
    save("tiny_1x1_420", picture(1, 1, 10), quality=90, subsampling=2)
    save("tiny_2x2_420", picture(2, 2, 11), quality=90, subsampling=2)
    save("cmyk", picture(24, 16, 12, "CMYK"), quality=90)
    exif = Image.Exif()
    exif[0x0112] = 6
    save("exif_orientation6", picture(16, 8, 13), quality=90, exif=exif.tobytes())
    # Every EXIF orientation on one asymmetric 7x4 picture, with Pillow's exif_transpose of it (what a viewer shows)
    # as `<name>.upright.png`.
    for orientation in range(1, 9):
        exif = Image.Exif()
        exif[0x0112] = orientation
        name = "orientation%d" % orientation
        save(name, picture(7, 4, 20), quality=95, subsampling=0, exif=exif.tobytes())
        upright = ImageOps.exif_transpose(Image.open(os.path.join(HERE, name + ".jpg")))
        upright.convert("RGBA").save(os.path.join(HERE, name + ".upright.png"), optimize=True)
    save("icc", picture(16, 8, 14), quality=90, icc_profile=b"\0" * 128 + b"acsp" + b"\0" * 300)
    # Quantization values above 255 make libjpeg write 16-bit (Pq = 1) tables.
    save("qtables16", picture(24, 16, 15), qtables=[[300 + i for i in range(64)], [400] * 64], subsampling=2)


main()
