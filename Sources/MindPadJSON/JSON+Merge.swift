extension JSON {
    /// This value with `other` laid over it: where both are objects, member
    /// by member (a key of both merged again, a key of `other` alone added
    /// after this object's members); anywhere else `other` wins. A game
    /// kind's result detail and its replay part are merged this way
    /// (`ResultDetail`).
    public func merging(_ other: JSON) -> JSON {
        guard case .object(var members) = self, case .object(let over) = other else { return other }
        for (key, value) in over {
            if let i = members.firstIndex(where: { $0.0 == key }) {
                members[i].1 = members[i].1.merging(value)
            } else {
                members.append((key, value))
            }
        }
        return .object(members)
    }

    /// Whether this is an object.
    public var isObject: Bool {
        if case .object = self { return true }
        return false
    }

    /// The same shape with every value that is not an object made `null`:
    /// what a part of a value looks like once it is no longer kept.
    public var nullingLeaves: JSON {
        guard case .object(let members) = self else { return .null }
        return .object(members.map { ($0.0, $0.1.nullingLeaves) })
    }
}
