/// A structural description of a kids' question's picture, which the client
/// draws as SVG: which scene, and that scene's fields (docs/protocol.md,
/// "Kids' prompts"). Fields a scene does not use are absent on the wire.
public struct KidsPicture: Sendable, Hashable, Codable {
    /// Which kind of picture it is.
    public enum Scene: String, Sendable, Hashable, Codable {
        /// `items`: one group `{thing, count}` to count.
        case count
        /// `groups`: two groups `{thing, count}`, box a then box b.
        case compare
        /// `colour`: the colour asked for; `items`: things `{thing, colour}`.
        case colours
        /// `reference`: the thing others are placed around; `items`:
        /// `{thing, place}`.
        case positions
        /// `items`: things `{thing}` (some with `colour`), option `"i"` is item i.
        case oddOneOut = "odd_one_out"
        /// `left` and `right`: two groups `{thing, count}` put together.
        case sum
        /// `left`: the group there is; `right`: how many of it go away
        /// (`{thing, count}`, drawn crossed out).
        case takeAway = "take_away"
        /// `left`: one group `{thing, count}`; `right`: how many such groups.
        case groups
        /// `left`: the things `{thing, count}` to share; `right`: who they
        /// are shared between `{thing, count}`; the answer is one share.
        case share
        /// `left` and `right` as numbers and `op`: add, subtract, multiply,
        /// divide.
        case numbers
    }

    /// One side of an operation: a group of things (pictures) or a number.
    public enum Operand: Sendable, Hashable, Codable {
        case group(KidsItem)
        case number(Int)

        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let n = try? container.decode(Int.self) {
                self = .number(n)
            } else {
                self = .group(try container.decode(KidsItem.self))
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .group(let item): try container.encode(item)
            case .number(let n): try container.encode(n)
            }
        }
    }

    public var scene: Scene
    public var items: [KidsItem]?
    public var groups: [KidsItem]?
    public var colour: KidsColour?
    public var reference: KidsThing?
    public var left: Operand?
    public var right: Operand?
    public var op: KidsOperation?

    public init(scene: Scene, items: [KidsItem]? = nil, groups: [KidsItem]? = nil, colour: KidsColour? = nil,
                reference: KidsThing? = nil, left: Operand? = nil, right: Operand? = nil, op: KidsOperation? = nil) {
        self.scene = scene
        self.items = items
        self.groups = groups
        self.colour = colour
        self.reference = reference
        self.left = left
        self.right = right
        self.op = op
    }
}

/// One thing (or a group of the same thing) in a picture; only the fields
/// its scene needs are set.
public struct KidsItem: Sendable, Hashable, Codable {
    public var thing: KidsThing?
    public var count: Int?
    public var colour: KidsColour?
    public var place: KidsPlace?

    public init(thing: KidsThing? = nil, count: Int? = nil, colour: KidsColour? = nil, place: KidsPlace? = nil) {
        self.thing = thing
        self.count = count
        self.colour = colour
        self.place = place
    }
}

/// The four operations, as the kids' prompts name them.
public enum KidsOperation: String, Sendable, Hashable, Codable, CaseIterable {
    case add, subtract, multiply, divide
}
