#!/usr/bin/env python3
"""Generates the TIFF fixtures of TIFFTests: small images made here, written by Pillow (libtiff) or, for what Pillow
cannot write (tiles, big-endian files, associated alpha, FillOrder 2), by the small writer below; each is
`<name>.tiff` beside `<name>.png` (and `<name>_page<N>.png` for later pages), Pillow's decoding of it as RGBA, the
reference Decant must match exactly.

Where Pillow's conversion to RGBA is not the mapping Decant documents (16-bit grey: Pillow clamps at 255 where
Decant keeps the high byte; floating point: Pillow clamps the value where Decant scales 0...1 to 0...255; signed
samples: Pillow clamps or takes the bytes as unsigned where Decant offsets them by half their range), the
reference is Pillow's decoded samples mapped in numpy as Decant documents.

It also writes `corpus_mapped.json`: for the image-tiff corpus files whose Pillow RGBA differs from Decant's
documented mapping for that reason, the CRC-32 of Pillow's samples mapped as Decant documents.

Run from anywhere: `python3 Tests/DecantImageTests/tiff_fixtures.py` (needs `pip install pillow numpy`).
"""
import io
import json
import os
import struct
import zlib

import numpy as np
from PIL import Image

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "Fixtures", "tiff")
CORPUS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "shared", "corpora", "images",
                      "image-tiff")


def picture(width, height, seed, mode="RGB"):
    """Gradients, a diagonal edge and noise."""
    rng = np.random.default_rng(seed)
    y, x = np.mgrid[0:height, 0:width].astype(np.float64)
    red = 255 * x / max(width - 1, 1)
    green = 255 * y / max(height - 1, 1)
    blue = np.where(x + y > (width + height) / 2, 220.0, 30.0)
    rgb = np.stack([red, green, blue], axis=-1) + rng.normal(0, 25, (height, width, 3))
    image = Image.fromarray(np.clip(rgb, 0, 255).astype(np.uint8), "RGB")
    return image.convert(mode) if mode != "RGB" else image


def mapped_rgba(image):
    """Pillow's decoded samples as Decant maps them to RGBA8, for the modes where Pillow's own RGBA differs."""
    a = np.asarray(image)
    tags = getattr(image, "tag_v2", {})
    bits = tags.get(258, (8,))[0]
    signed = tags.get(339, (1,))[0] == 2
    if signed and image.mode in ("L", "I") and image.tag_v2.get(277, 1) == 1:
        # Signed samples: offset by half their range, then the high 8 bits.
        wide = a.astype(np.int64)
        if image.mode == "L":
            wide = np.where(wide >= 128, wide - 256, wide)
        gray = ((wide + (1 << (bits - 1))) >> (bits - 8)).astype(np.uint8)
    elif image.mode == "I" and bits == 32:
        gray = (a.astype(np.int64).astype(np.uint32) >> 24).astype(np.uint8)
    elif image.mode in ("I;16", "I;16B", "I;16L"):
        gray = (a.astype(np.uint32) >> (bits - 8)).astype(np.uint8)
    elif image.mode == "F":
        gray = np.floor(np.clip(a.astype(np.float64), 0, 1) * 255 + 0.5).astype(np.uint8)
    else:
        return None
    return np.stack([gray, gray, gray, np.full_like(gray, 255)], axis=-1)


def reference(image):
    """The RGBA8 reference of a decoded Pillow image."""
    rgba = mapped_rgba(image)
    if rgba is not None:
        return Image.fromarray(rgba, "RGBA")
    return image.convert("RGBA")


def write_references(name, data):
    image = Image.open(io.BytesIO(data))
    for index in range(getattr(image, "n_frames", 1)):
        image.seek(index)
        suffix = "" if index == 0 else "_page%d" % index
        reference(image).save(os.path.join(HERE, name + suffix + ".png"), optimize=True)


def save(name, image, **options):
    buffer = io.BytesIO()
    image.save(buffer, "TIFF", **options)
    data = buffer.getvalue()
    with open(os.path.join(HERE, name + ".tiff"), "wb") as file:
        file.write(data)
    write_references(name, data)


def write_tiff(name, width, height, samples, bits, photometric, chunks, *, big_endian=False, tile=None,
               rows_per_strip=None, compression=1, extra=None, tags=None):
    """A one-page TIFF written field by field (TIFF 6.0 §2): chunks are the (already compressed) strips or tiles."""
    order = ">" if big_endian else "<"
    entries = {
        256: (4, [width]), 257: (4, [height]), 258: (3, [bits] * samples), 259: (3, [compression]),
        262: (3, [photometric]), 277: (3, [samples]),
    }
    if tile:
        entries[322] = (4, [tile[0]])
        entries[323] = (4, [tile[1]])
    else:
        entries[278] = (4, [rows_per_strip or height])
    if extra is not None:
        entries[338] = (3, [extra])
    for tag, value in (tags or {}).items():
        entries[tag] = value
    offsets_tag, counts_tag = (324, 325) if tile else (273, 279)
    entries[offsets_tag] = (4, [0] * len(chunks))
    entries[counts_tag] = (4, [len(c) for c in chunks])
    data = bytearray(b"MM\x00*" if big_endian else b"II*\x00")
    data += struct.pack(order + "I", 0)
    offsets = []
    for chunk in chunks:
        offsets.append(len(data))
        data += chunk
        if len(data) % 2:
            data += b"\x00"
    entries[offsets_tag] = (4, offsets)
    sizes = {3: 2, 4: 4, 5: 8}
    codes = {3: "H", 4: "I"}
    ifd_offset = len(data)
    struct.pack_into(order + "I", data, 4, ifd_offset)
    body = bytearray()
    values_start = ifd_offset + 2 + 12 * len(entries) + 4
    directory = bytearray(struct.pack(order + "H", len(entries)))
    for tag in sorted(entries):
        kind, values = entries[tag]
        if kind == 5:
            packed = b"".join(struct.pack(order + "II", n, d) for n, d in values)
        else:
            packed = b"".join(struct.pack(order + codes[kind], v) for v in values)
        if len(packed) <= 4:
            field = packed + b"\x00" * (4 - len(packed))
        else:
            field = struct.pack(order + "I", values_start + len(body))
            body += packed
            if len(body) % 2:
                body += b"\x00"
        directory += struct.pack(order + "HHI", tag, kind, len(packed) // sizes[kind]) + field
    directory += struct.pack(order + "I", 0)
    data += directory + body
    with open(os.path.join(HERE, name + ".tiff"), "wb") as file:
        file.write(bytes(data))
    write_references(name, bytes(data))


def tiles_of(array, tile_width, tile_height):
    """The tiles of an (height, width, ...) array, row by row, padded with zeros at the right and bottom."""
    height, width = array.shape[:2]
    tiles = []
    for top in range(0, height, tile_height):
        for left in range(0, width, tile_width):
            tile = np.zeros((tile_height, tile_width) + array.shape[2:], array.dtype)
            part = array[top:top + tile_height, left:left + tile_width]
            tile[:part.shape[0], :part.shape[1]] = part
            tiles.append(tile)
    return tiles


def main():
    os.makedirs(HERE, exist_ok=True)
    for old in os.listdir(HERE):
        if old.endswith((".tiff", ".png")):
            os.remove(os.path.join(HERE, old))
    rgb = picture(33, 17, 1)
    for compression in ["raw", "packbits", "tiff_lzw", "tiff_adobe_deflate", "tiff_deflate"]:
        save("rgb8_" + compression, rgb, compression=compression)
    save("rgb8_lzw_predictor", rgb, compression="tiff_lzw", tiffinfo={317: 2})
    save("rgb8_deflate_predictor", rgb, compression="tiff_adobe_deflate", tiffinfo={317: 2})
    save("rgb8_bigtiff", rgb, big_tiff=True)
    save("rgb8_jpeg", picture(40, 24, 2), compression="jpeg")
    save("gray8_jpeg", picture(40, 24, 3, "L"), compression="jpeg")
    save("gray8_lzw", picture(31, 9, 4, "L"), compression="tiff_lzw")
    save("gray8_lzw_predictor", picture(31, 9, 4, "L"), compression="tiff_lzw", tiffinfo={317: 2})
    save("bilevel_raw", picture(21, 7, 5, "1"))
    save("bilevel_packbits", picture(21, 7, 5, "1"), compression="packbits")
    save("palette8_lzw", picture(19, 11, 6, "P"), compression="tiff_lzw")
    save("rgba8_lzw", picture(17, 13, 7, "RGBA").point(lambda v: v), compression="tiff_lzw")
    alpha = picture(17, 13, 8).copy()
    alpha.putalpha(picture(17, 13, 9, "L"))
    save("rgba8_alpha_deflate", alpha, compression="tiff_adobe_deflate")
    la = picture(17, 13, 10, "L").convert("LA")
    la.putalpha(picture(17, 13, 11, "L"))
    save("gray_alpha8_deflate", la, compression="tiff_adobe_deflate")
    save("cmyk8_lzw", picture(23, 9, 12, "CMYK"), compression="tiff_lzw")
    wide = (np.asarray(picture(23, 9, 13, "L")).astype(np.uint16) * 257 + 7).astype(np.uint16)
    save("gray16_deflate", Image.fromarray(wide), compression="tiff_adobe_deflate")
    save("gray16_lzw_predictor", Image.fromarray(wide), compression="tiff_lzw", tiffinfo={317: 2})
    floats = (np.asarray(picture(23, 9, 14, "L")).astype(np.float32) / 200.0 - 0.1).astype(np.float32)
    save("float32_deflate_predictor", Image.fromarray(floats), compression="tiff_adobe_deflate",
         tiffinfo={317: 3})
    save("float32_raw", Image.fromarray(floats))
    pages = [picture(20, 10, 15), picture(12, 14, 16), picture(20, 10, 17, "L")]
    save("multipage_lzw", pages[0], compression="tiff_lzw", save_all=True, append_images=pages[1:])

    # Written field by field: tiles (clipped at the edges), big-endian, associated alpha, FillOrder 2, metadata.
    pixels = np.asarray(rgb)
    write_tiff("rgb8_tiled_mm", 33, 17, 3, 8, 2, [t.tobytes() for t in tiles_of(pixels, 16, 16)], big_endian=True,
               tile=(16, 16))
    write_tiff("rgb8_tiled_deflate", 33, 17, 3, 8, 2,
               [zlib.compress(t.tobytes()) for t in tiles_of(pixels, 16, 16)], tile=(16, 16), compression=8)
    bilevel = np.asarray(picture(37, 19, 18, "1"))
    write_tiff("bilevel_tiled", 37, 19, 1, 1, 1,
               [np.packbits(t, axis=1).tobytes() for t in tiles_of(bilevel, 16, 16)], tile=(16, 16))
    reversed_bits = bytes(int("{:08b}".format(b)[::-1], 2) for b in np.packbits(bilevel, axis=1).tobytes())
    write_tiff("bilevel_fillorder2", 37, 19, 1, 1, 0, [reversed_bits], tags={266: (3, [2])})
    planes = [np.ascontiguousarray(pixels[..., plane]) for plane in range(3)]
    differenced = [np.concatenate([p[:, :1], np.diff(p, axis=1)], axis=1).astype(np.uint8) for p in planes]
    write_tiff("rgb8_planar_deflate_predictor", 33, 17, 3, 8, 2, [zlib.compress(p.tobytes()) for p in differenced],
               compression=8, tags={284: (3, [2]), 317: (3, [2])})
    sixteen = (np.asarray(rgb).astype(np.uint16) * 257).astype(">u2")
    write_tiff("rgb16_mm_strips", 33, 17, 3, 16, 2, [sixteen[r:r + 5].tobytes() for r in range(0, 17, 5)],
               big_endian=True, rows_per_strip=5)
    straight = np.asarray(alpha).astype(np.uint32)
    premultiplied = straight.copy()
    premultiplied[..., :3] = straight[..., :3] * straight[..., 3:] // 255
    write_tiff("rgba8_associated", 17, 13, 4, 8, 2, [premultiplied.astype(np.uint8).tobytes()], extra=1)
    write_tiff("gray8_metadata", 31, 9, 1, 8, 1, [np.asarray(picture(31, 9, 4, "L")).tobytes()],
               tags={274: (3, [6]), 282: (5, [(300, 1)]), 283: (5, [(150, 1)]), 296: (3, [2])})
    # Pillow rotates by the Orientation field when loading; Decant reports it, so the reference is the picture.
    picture(31, 9, 4, "L").convert("RGBA").save(os.path.join(HERE, "gray8_metadata.png"), optimize=True)

    # YCbCr in 2×2 blocks (four Y, then Cb and Cr), Deflate, partial blocks at the right and bottom edges; Pillow
    # reads it through libtiff's RGBA interface.
    rng = np.random.default_rng(19)
    blocks = bytearray()
    for _ in range(9 * 17):
        blocks += bytes(rng.integers(16, 236, 4, dtype=np.uint8)) + bytes(rng.integers(16, 240, 2, dtype=np.uint8))
    write_tiff("ycbcr_2x2_deflate", 33, 17, 3, 8, 6, [zlib.compress(bytes(blocks))], compression=8,
               tags={530: (3, [2, 2])})

    # Corpus files whose Pillow RGBA is not Decant's documented mapping: the CRC-32 of Pillow's samples so mapped.
    mapped = {}
    for directory, _, files in os.walk(os.path.join(CORPUS, "tests")):
        if "fuzz_images" in directory:
            continue
        for file in sorted(files):
            if not file.endswith((".tif", ".tiff")):
                continue
            path = os.path.join(directory, file)
            try:
                image = Image.open(path)
                rgba = mapped_rgba(image)
            except Exception:
                continue
            if rgba is not None:
                relative = os.path.relpath(path, CORPUS)
                mapped[relative] = zlib.crc32(rgba.astype(np.uint8).tobytes())
    with open(os.path.join(HERE, "corpus_mapped.json"), "w") as file:
        json.dump(mapped, file, indent=1, sort_keys=True)
        file.write("\n")


if __name__ == "__main__":
    main()
