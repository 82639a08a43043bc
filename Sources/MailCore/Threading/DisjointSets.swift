/// Union-find over the integers `0..<count`, with path halving and union by size,
/// so that grouping tens of thousands of messages stays close to linear.
struct DisjointSets {
    private var parent: [Int]
    private var size: [Int]

    init(count: Int) {
        parent = Array(0..<count)
        size = Array(repeating: 1, count: count)
    }

    /// Adds a new singleton set and returns its element.
    mutating func makeSet() -> Int {
        parent.append(parent.count)
        size.append(1)
        return parent.count - 1
    }

    /// The representative of the set holding `element`.
    mutating func find(_ element: Int) -> Int {
        var node = element
        while parent[node] != node {
            parent[node] = parent[parent[node]]
            node = parent[node]
        }
        return node
    }

    mutating func union(_ first: Int, _ second: Int) {
        var rootA = find(first)
        var rootB = find(second)
        guard rootA != rootB else { return }
        if size[rootA] < size[rootB] { swap(&rootA, &rootB) }
        parent[rootB] = rootA
        size[rootA] += size[rootB]
    }
}
