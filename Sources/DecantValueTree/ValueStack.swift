/// A stack of finished values for a reader that builds a tree bottom-up: the items of every open container,
/// innermost last. Closing a container moves its items out into the container's array in one go, without retaining
/// or releasing them.
///
/// The storage is managed by hand (values are moved, never copied), so the owner calls ``release()`` exactly once,
/// on success and on failure alike. It grows by doubling, so it holds at most twice the values pushed and not yet
/// taken: a reader bounds it by bounding the items a body may hold.
///
/// ```swift
/// var stack = ValueStack<Int>()
/// defer { stack.release() }
/// stack.push(1)
/// stack.push(2)
/// let items = stack.takeArray(from: 0)  // [1, 2]
/// ```
@frozen
public struct ValueStack<Element> {
    /// The values, from the bottom of the stack; ``count`` of them are initialized.
    @usableFromInline var storage: UnsafeMutablePointer<Element>
    /// How many values are initialized in ``storage``.
    @usableFromInline var length = 0
    /// How many values ``storage`` has room for.
    @usableFromInline var capacity: Int

    /// How many values the stack holds.
    @inlinable public var count: Int { length }

    /// Creates an empty stack with room for 64 values.
    @inlinable
    public init() {
        capacity = 64
        storage = .allocate(capacity: capacity)
    }

    /// Deinitializes the values left and frees the storage. Call it exactly once; the stack is unusable after.
    @inlinable
    public func release() {
        storage.deinitialize(count: length)
        storage.deallocate()
    }

    /// Pushes `value` on top.
    @inlinable @inline(__always)
    public mutating func push(_ value: consuming Element) {
        if length == capacity { grow() }
        (storage + length).initialize(to: value)
        length += 1
    }

    @usableFromInline
    mutating func grow() {
        let larger = capacity * 2
        let moved = UnsafeMutablePointer<Element>.allocate(capacity: larger)
        moved.moveInitialize(from: storage, count: length)
        storage.deallocate()
        storage = moved
        capacity = larger
    }

    /// Removes and returns the top value; the stack must not be empty.
    @inlinable @inline(__always)
    public mutating func pop() -> Element {
        length -= 1
        return (storage + length).move()
    }

    /// Removes the top value; the stack must not be empty.
    @inlinable @inline(__always)
    public mutating func dropLast() {
        length -= 1
        (storage + length).deinitialize(count: 1)
    }

    /// Replaces the value at `index` (below ``count``).
    @inlinable @inline(__always)
    public mutating func replace(at index: Int, with value: consuming Element) {
        (storage + index).pointee = value
    }

    /// The value at `index` (below ``count``).
    @inlinable @inline(__always)
    public subscript(index: Int) -> Element { storage[index] }

    /// Removes the values from `start` (at most ``count``) on and returns them as an array, in order.
    @inlinable
    public mutating func takeArray(from start: Int) -> [Element] {
        let taken = length - start
        let source = storage + start
        length = start
        var array: [Element] = []
        array.reserveCapacity(taken)
        for index in 0..<taken { array.append((source + index).move()) }
        return array
    }

    /// Removes the values from `start` (at most ``count``) on, keys and values alternating, and returns them as map
    /// entries, in order (a key without a value after it is dropped).
    @inlinable
    public mutating func takeEntries<Entry: TreeMapEntry>(from start: Int) -> [Entry] where Entry.Value == Element {
        let entryCount = (length - start) / 2
        let source = storage + start
        var entries: [Entry] = []
        entries.reserveCapacity(entryCount)
        for index in 0..<entryCount {
            entries.append(Entry(key: (source + 2 * index).move(), value: (source + 2 * index + 1).move()))
        }
        (source + 2 * entryCount).deinitialize(count: length - start - 2 * entryCount)
        length = start
        return entries
    }

    /// Removes the values from `start` (at most ``count``) on.
    @inlinable
    public mutating func drop(from start: Int) {
        (storage + start).deinitialize(count: length - start)
        length = start
    }
}
