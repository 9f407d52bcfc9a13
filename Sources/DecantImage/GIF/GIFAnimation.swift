import DecantCore

/// The frames of a decoded animated GIF as stored (each frame's palette indices), shared by the ``Image/Frame``s made
/// from them, and the canvases composited from them on demand (GIF89a §23, disposal methods).
///
/// Compositing frame `n` needs the canvas after frame `n - 1`, so a cache keeps the canvas last produced, and
/// checkpoints: the canvas after every ``spacing``-th frame, once compositing has passed it (at most
/// ``maxCheckpoints``). A frame is composited from the nearest earlier state: the last canvas, a checkpoint, or a
/// frame that covers the whole canvas with opaque pixels (whose canvas needs no history). So reading the frames in
/// order costs one drawing step per frame, and once they have been read through, any frame costs fewer than
/// ``spacing`` steps. The cache is behind a lock, held while compositing: concurrent readers take turns, and every
/// reader gets the same bytes. The arrays handed out share storage with the cache; a step draws in place when no one
/// else holds the canvas, and copies it otherwise.
final class GIFAnimation: Sendable {
    /// The canvas after drawing one frame, and what the next step needs to dispose of that frame.
    struct State {
        /// The frame last drawn on ``canvas``.
        var index: Int
        /// The full RGBA8 canvas after drawing frame ``index``.
        var canvas: [UInt8]
        /// The canvas before frame ``index`` was drawn, kept when that frame's disposal is `previous`.
        var restore: [UInt8]?
    }

    struct Cache {
        /// The state last produced; `nil` only while a step is under way.
        var last: State?
        /// `checkpoints[k]`: the state after frame `k * spacing`, once compositing has passed it. Entry 0 is set from
        /// the start.
        var checkpoints: [State?]
    }

    /// The most checkpoints kept, each a full canvas.
    static let maxCheckpoints = 8

    /// The canvas size in pixels.
    let width: Int
    let height: Int
    /// Every frame as stored.
    let frames: [GIFDecoder.RawFrame]
    /// The number of frames between checkpoints.
    let spacing: Int
    private let cache: Locked<Cache>

    /// Keeps `frames`, with `first`, the state after drawing frame 0 (see ``first(_:width:height:)``).
    init(width: Int, height: Int, frames: [GIFDecoder.RawFrame], first: State) {
        precondition(!frames.isEmpty && first.index == 0)
        self.width = width
        self.height = height
        self.frames = frames
        let spacing = max(1, (frames.count + Self.maxCheckpoints - 1) / Self.maxCheckpoints)
        self.spacing = spacing
        var checkpoints = [State?](repeating: nil, count: (frames.count + spacing - 1) / spacing)
        checkpoints[0] = first
        cache = Locked(Cache(last: first, checkpoints: checkpoints))
    }

    /// The full canvas after drawing frame `index`, composited from the nearest earlier cached state.
    ///
    /// The array shares its storage with the cache until either changes (copy-on-write).
    func canvas(at index: Int) -> [UInt8] {
        precondition(frames.indices.contains(index), "frame index \(index) is out of range")
        return cache.withLock { cache in
            var state = start(for: index, in: &cache)
            while state.index < index {
                advance(&state)
                let slot = state.index / spacing
                if state.index % spacing == 0 && cache.checkpoints[slot] == nil { cache.checkpoints[slot] = state }
            }
            cache.last = state
            return state.canvas
        }
    }

    /// The latest state at or before frame `index`: the last one produced (moved out of the cache, so that the canvas
    /// is drawn on in place when no one else holds it), a checkpoint, or a frame whose canvas needs no history.
    private func start(for index: Int, in cache: inout Cache) -> State {
        var slot = index / spacing
        while cache.checkpoints[slot] == nil { slot -= 1 }  // entry 0 is always set
        var best = cache.checkpoints[slot]!
        if let last = cache.last.take(), last.index <= index, last.index >= best.index { best = last }
        for candidate in Swift.stride(from: index, to: best.index, by: -1) where isSelfContained(candidate) {
            let frame = frames[candidate]
            var canvas = [UInt8](unsafeUninitializedCapacity: width * height * 4) { _, count in
                count = width * height * 4
            }
            Self.draw(frame, on: &canvas, width: width, height: height)
            return State(index: candidate, canvas: canvas, restore: nil)
        }
        return best
    }

    /// Whether the canvas after frame `index` is that frame's own pixels, whatever came before: the frame covers
    /// the canvas, has no transparent index, and its disposal is not `previous` (which would need the canvas before).
    private func isSelfContained(_ index: Int) -> Bool {
        let frame = frames[index]
        return Self.covers(frame, width: width, height: height) && frame.disposal != .previous
    }

    /// Disposes of the frame last drawn and draws the next one.
    private func advance(_ state: inout State) {
        let drawn = frames[state.index]
        switch drawn.disposal {
        case .background:
            let right = min(width, drawn.x + drawn.width)
            let bottom = min(height, drawn.y + drawn.height)
            if drawn.x < right && drawn.y < bottom {
                let width = width
                state.canvas.withUnsafeMutableBytes { target in
                    for row in drawn.y..<bottom {
                        (target.baseAddress! + (row * width + drawn.x) * 4).initializeMemory(
                            as: UInt8.self, repeating: 0, count: (right - drawn.x) * 4)
                    }
                }
            }
        case .previous:
            if let restore = state.restore { state.canvas = restore }
        case .none, .unspecified:
            break
        }
        state.restore = nil
        state.index += 1
        let next = frames[state.index]
        if next.disposal == .previous { state.restore = state.canvas }
        Self.draw(next, on: &state.canvas, width: width, height: height)
    }

    /// Whether `frame` sets every pixel of a `width` by `height` canvas: it covers it and has no transparent index.
    static func covers(_ frame: GIFDecoder.RawFrame, width: Int, height: Int) -> Bool {
        frame.x == 0 && frame.y == 0 && frame.width >= width && frame.height >= height && frame.transparentIndex == nil
    }

    /// The state after drawing `frame`, the first frame, on a transparent black canvas.
    static func first(_ frame: GIFDecoder.RawFrame, width: Int, height: Int) -> State {
        let covers = covers(frame, width: width, height: height)
        // A frame that sets every pixel needs no cleared canvas beneath it.
        var canvas = [UInt8](unsafeUninitializedCapacity: width * height * 4) { buffer, count in
            if !covers { buffer.initialize(repeating: 0) }
            count = width * height * 4
        }
        var restore: [UInt8]? = nil
        if frame.disposal == .previous {
            restore = covers ? [UInt8](repeating: 0, count: width * height * 4) : canvas
        }
        draw(frame, on: &canvas, width: width, height: height)
        return State(index: 0, canvas: canvas, restore: restore)
    }

    /// Draws `frame`'s pixels on `canvas`, clipped to it; pixels with the transparent index are left as they are.
    static func draw(_ frame: GIFDecoder.RawFrame, on canvas: inout [UInt8], width: Int, height: Int) {
        let right = min(width, frame.x + frame.width)
        let bottom = min(height, frame.y + frame.height)
        guard frame.x < right && frame.y < bottom else { return }
        canvas.withUnsafeMutableBytes { target in
            for row in frame.y..<bottom {
                GIFDecoder.map(
                    frame.indices, from: frame.storedRow(row - frame.y) * frame.width, count: right - frame.x,
                    palette: frame.palette, transparentIndex: frame.transparentIndex,
                    into: target.baseAddress! + (row * width + frame.x) * 4)
            }
        }
    }
}
