/// The reader's one stack of finished values: the items of every open container, innermost last. Closing a
/// container moves its items out into the container's array in one go, without retaining or releasing them.
///
/// The storage is managed by hand (values are moved, never copied), so the owner calls ``release()`` exactly once,
/// on success and on failure alike.
struct MessagePackValueStack {
    private(set) var storage: UnsafeMutablePointer<MessagePackValue>
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
    mutating func push(_ value: consuming MessagePackValue) {
        if count == capacity { grow() }
        (storage + count).initialize(to: value)
        count += 1
    }

    private mutating func grow() {
        let larger = capacity * 2
        let moved = UnsafeMutablePointer<MessagePackValue>.allocate(capacity: larger)
        moved.moveInitialize(from: storage, count: count)
        storage.deallocate()
        storage = moved
        capacity = larger
    }

    /// Removes the values from `start` on and returns them as an array, in order.
    mutating func takeArray(from start: Int) -> [MessagePackValue] {
        let length = count - start
        let source = storage + start
        count = start
        var array: [MessagePackValue] = []
        array.reserveCapacity(length)
        for index in 0..<length { array.append((source + index).move()) }
        return array
    }

    /// Removes the values from `start` on (keys and values alternating) and returns them as map entries, in order.
    mutating func takeEntries(from start: Int) -> [MessagePackValue.Entry] {
        let length = (count - start) / 2
        let source = storage + start
        count = start
        var entries: [MessagePackValue.Entry] = []
        entries.reserveCapacity(length)
        for index in 0..<length {
            entries.append(
                MessagePackValue.Entry((source + 2 * index).move(), (source + 2 * index + 1).move()))
        }
        return entries
    }
}
