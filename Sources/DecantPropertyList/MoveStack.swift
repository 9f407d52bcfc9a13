/// A growable stack that hands out its top elements as an array by moving them, so that building an array or a
/// dictionary neither copies nor retains its children.
final class MoveStack<Element> {
    private var storage: UnsafeMutablePointer<Element>
    private var capacity: Int
    /// The number of elements on the stack.
    private(set) var count = 0

    init(capacity: Int = 32) {
        self.capacity = capacity
        storage = .allocate(capacity: capacity)
    }

    deinit {
        storage.deinitialize(count: count)
        storage.deallocate()
    }

    /// The top element; the stack must not be empty.
    var last: Element { storage[count - 1] }

    /// Pushes `element`.
    func push(_ element: consuming Element) {
        if count == capacity {
            let grown = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
            grown.moveInitialize(from: storage, count: count)
            storage.deallocate()
            storage = grown
            capacity *= 2
        }
        (storage + count).initialize(to: element)
        count += 1
    }

    /// Removes and returns the top element; the stack must not be empty.
    func popLast() -> Element {
        count -= 1
        return (storage + count).move()
    }

    /// Removes the elements from `start` up, returning them in order.
    func popArray(from start: Int) -> [Element] {
        let length = count - start
        guard length > 0 else { return [] }
        let source = storage + start
        count = start
        return Array(unsafeUninitializedCapacity: length) { buffer, initialized in
            buffer.baseAddress!.moveInitialize(from: source, count: length)
            initialized = length
        }
    }
}
