extension Image {
    /// The image as a viewer shows it: its pixels rotated and mirrored as ``Metadata/exifOrientation`` says (EXIF 2.3
    /// and TIFF 6.0 tag 274, `Orientation`), with ``width`` and ``height`` swapped for orientations 5 to 8 and the
    /// orientation then 1.
    ///
    /// The eight values name where the stored rows and columns go: 1 as stored, 2 mirrored left to right, 3 rotated
    /// 180°, 4 mirrored top to bottom, 5 transposed (mirrored along the main diagonal), 6 rotated 90° clockwise, 7
    /// transversed (mirrored along the other diagonal), 8 rotated 90° anticlockwise: the same transforms as Pillow's
    /// `ImageOps.exif_transpose`. An image without an orientation, or with a value outside 1...8, is returned as it
    /// is. Animation frames, their rectangles, TIFF pages (each at its own size) and ``samples16`` are transformed
    /// too; an image whose pixels were not decoded gets its size swapped now and its pixels oriented when
    /// ``decoded()`` decodes them.
    ///
    /// ```swift
    /// let upright = try registry.serialize(response, as: Image.self).oriented()
    /// ```
    ///
    /// Set ``ImageDecodingOptions/appliesOrientation`` (configuration option `appliesOrientation`) to have the
    /// serializer do this.
    public func oriented() -> Image {
        guard let orientation = metadata.exifOrientation, (2...8).contains(orientation) else { return self }
        let swaps = orientation >= 5
        var result = self
        result.metadata.exifOrientation = 1
        guard isDecoded else {
            guard let pendingSource, var options = pendingOptions else { return self }
            options.appliesOrientation = true
            var lazy = Image(
                undecoded: swaps ? height : width, height: swaps ? width : height, format: format,
                metadata: result.metadata, source: pendingSource, options: options)
            lazy.scale = scale
            lazy.frameCount = frameCount
            return lazy
        }
        if swaps {
            result.width = height
            result.height = width
        }
        result.pixels = Self.orient(pixels, width: width, height: height, orientation: orientation)
        if let samples16, width * height > 0, samples16.count % (width * height) == 0 {
            result.samples16 = Self.orient(samples16, width: width, height: height, orientation: orientation)
        }
        result.frames = frames.indices.map { index in
            let frame = frames[index]
            var oriented = frame
            guard frame.pixels.count == width * height * 4 else {
                // A page of its own size (TIFF): transformed on its own.
                let size = pixelSize(ofFrame: index)
                oriented.pixels = Self.orient(
                    frame.pixels, width: size.width, height: size.height, orientation: orientation)
                if swaps { (oriented.width, oriented.height) = (frame.height, frame.width) }
                return oriented
            }
            oriented.pixels = Self.orient(frame.pixels, width: width, height: height, orientation: orientation)
            let corner = Self.sourcePoint(
                destinationX: 0, destinationY: 0, width: frame.width, height: frame.height, orientation: orientation)
            // The rectangle's new top-left corner is where its stored corner that lands top-left was.
            let (x, y) = Self.destinationPoint(
                sourceX: frame.x + corner.x, sourceY: frame.y + corner.y, width: width, height: height,
                orientation: orientation)
            (oriented.x, oriented.y) = (x, y)
            if swaps { (oriented.width, oriented.height) = (frame.height, frame.width) }
            return oriented
        }
        return result
    }

    /// `samples` (whole pixels of `samples.count / (width * height)` elements, top-down rows) transformed by
    /// `orientation`.
    static func orient<Sample>(_ samples: [Sample], width: Int, height: Int, orientation: Int) -> [Sample] {
        let pixelCount = width * height
        guard pixelCount > 0, samples.count % pixelCount == 0, !samples.isEmpty else { return samples }
        let channels = samples.count / pixelCount
        let swaps = orientation >= 5
        let outputWidth = swaps ? height : width
        let outputHeight = swaps ? width : height
        var output = samples
        samples.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                var index = 0
                for y in 0..<outputHeight {
                    for x in 0..<outputWidth {
                        let point = sourcePoint(
                            destinationX: x, destinationY: y, width: width, height: height, orientation: orientation)
                        let from = (point.y * width + point.x) * channels
                        for channel in 0..<channels { target[index + channel] = source[from + channel] }
                        index += channels
                    }
                }
            }
        }
        return output
    }

    /// The stored pixel shown at (`destinationX`, `destinationY`) of the oriented image, for a stored image `width`
    /// by `height`.
    static func sourcePoint(
        destinationX x: Int, destinationY y: Int, width: Int, height: Int, orientation: Int
    ) -> (x: Int, y: Int) {
        switch orientation {
        case 2: return (width - 1 - x, y)
        case 3: return (width - 1 - x, height - 1 - y)
        case 4: return (x, height - 1 - y)
        case 5: return (y, x)
        case 6: return (y, height - 1 - x)
        case 7: return (width - 1 - y, height - 1 - x)
        case 8: return (width - 1 - y, x)
        default: return (x, y)
        }
    }

    /// Where the stored pixel (`sourceX`, `sourceY`) of a `width` by `height` image is shown once oriented: the
    /// inverse of ``sourcePoint(destinationX:destinationY:width:height:orientation:)``, which is that function for
    /// the inverse orientation (6 and 8 undo each other, the others undo themselves) on the oriented size.
    static func destinationPoint(
        sourceX x: Int, sourceY y: Int, width: Int, height: Int, orientation: Int
    ) -> (x: Int, y: Int) {
        let swaps = orientation >= 5 && orientation <= 8
        let inverse = orientation == 6 ? 8 : orientation == 8 ? 6 : orientation
        return sourcePoint(
            destinationX: x, destinationY: y, width: swaps ? height : width, height: swaps ? width : height,
            orientation: inverse)
    }
}
