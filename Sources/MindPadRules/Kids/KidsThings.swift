/// The things a kids' picture can show. A fixed list, so the web client can
/// draw each one (as SVG made in the project); the groups are what "odd one
/// out" sorts by.
public enum KidsThing: String, Sendable, Hashable, Codable, CaseIterable {
    case apple, banana, pear, strawberry, carrot
    case cat, dog, duck, fish, rabbit, bird
    case ball, car, star, house, tree, flower

    /// What a thing is, for sorting.
    public enum Group: String, Sendable, Hashable, CaseIterable {
        /// Fruit and vegetables.
        case food
        case animal
        /// Toys, places and plants: everything else.
        case other
    }

    public var group: Group {
        switch self {
        case .apple, .banana, .pear, .strawberry, .carrot: .food
        case .cat, .dog, .duck, .fish, .rabbit, .bird: .animal
        case .ball, .car, .star, .house, .tree, .flower: .other
        }
    }

    /// Every thing of `group`, in list order.
    public static func all(in group: Group) -> [KidsThing] {
        allCases.filter { $0.group == group }
    }

    /// Things small enough to be counted, compared and shared in a picture
    /// (a house or a tree on a plate would look odd).
    public static let countable: [KidsThing] = [
        .apple, .banana, .pear, .strawberry, .carrot, .duck, .fish, .bird, .ball, .car, .star, .flower,
    ]
}

/// The colours a kids' picture can paint a thing in.
public enum KidsColour: String, Sendable, Hashable, Codable, CaseIterable {
    case red, orange, yellow, green, blue, purple, pink, brown, black, white
}

/// Where a thing is, relative to the picture's reference thing.
public enum KidsPlace: String, Sendable, Hashable, Codable, CaseIterable {
    case top, under, left, right, front, behind
}
