/// The reader's one stack of finished values: the items of every open container, innermost last. Closing a
/// container moves its items out into the container's array in one go, without retaining or releasing them.
///
/// The storage is managed by hand (values are moved, never copied), so the owner calls ``release()`` exactly once,
/// on success and on failure alike.
struct CBORValueStack {
    private(set) var storage: UnsafeMutablePointer<CBORValue>
    private(set) var count = 0
    private var capacity: Int

    init() {
        capacity = 64
        storage = .allocate(capacity: capacity)
    }

    /// Deinitializes the values left and frees the storage.
    func release() {
        storage.deinitialize(count: count)
        storage.deallocate()
    }

    @inline(__always)
    mutating func push(_ value: consuming CBORValue) {
        if count == capacity { grow() }
        (storage + count).initialize(to: value)
        count += 1
    }

    private mutating func grow() {
        let larger = capacity * 2
        let moved = UnsafeMutablePointer<CBORValue>.allocate(capacity: larger)
        moved.moveInitialize(from: storage, count: count)
        storage.deallocate()
        storage = moved
        capacity = larger
    }

    /// Removes and returns the last value; the stack must not be empty.
    @inline(__always)
    mutating func pop() -> CBORValue {
        count -= 1
        return (storage + count).move()
    }

    /// Removes the last value; the stack must not be empty.
    @inline(__always)
    mutating func dropLast() {
        count -= 1
        (storage + count).deinitialize(count: 1)
    }

    /// Replaces the value at `index` (below ``count``).
    @inline(__always)
    mutating func replace(at index: Int, with value: consuming CBORValue) {
        (storage + index).pointee = value
    }

    /// The value at `index` (below ``count``).
    @inline(__always)
    subscript(index: Int) -> CBORValue { storage[index] }

    /// Removes the values from `start` on and returns them as an array, in order.
    mutating func takeArray(from start: Int) -> [CBORValue] {
        let length = count - start
        let source = storage + start
        count = start
        var array: [CBORValue] = []
        array.reserveCapacity(length)
        for index in 0..<length { array.append((source + index).move()) }
        return array
    }

    /// Removes the values from `start` on (keys and values alternating) and returns them as map entries, in order.
    mutating func takeEntries(from start: Int) -> [CBORValue.MapEntry] {
        let length = (count - start) / 2
        let source = storage + start
        count = start
        var entries: [CBORValue.MapEntry] = []
        entries.reserveCapacity(length)
        for index in 0..<length {
            entries.append(
                CBORValue.MapEntry(key: (source + 2 * index).move(), value: (source + 2 * index + 1).move()))
        }
        return entries
    }

    /// Removes the values from `start` on.
    mutating func drop(from start: Int) {
        (storage + start).deinitialize(count: count - start)
        count = start
    }
}
