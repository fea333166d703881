/// Odd one out: a row of things, all of one group (food, animals, other
/// things) but one, "which one does not belong?"; option `"i"` is item i.
///
/// | level | things | the alike ones | colours |
/// |-------|--------|----------------|---------|
/// | Ant   | 3 | the same thing | none |
/// | Bee   | 3 | different things of one group | none |
/// | Cat   | 4 | the same thing | none |
/// | Dog   | 4 | different things of one group | none |
/// | Elephant | 4 | different things of one group | each its own, at random |
/// | Fox   | 4 | different things of one group | the odd one shares a colour with one of them |
public enum KidsClassifying {
    static func question(level: Int, using generator: inout SeededGenerator) -> KidsQuestion {
        let count = KidsLevel.optionCount(level: level)
        let groups = KidsDraw.pick(2, from: KidsThing.Group.allCases, using: &generator)
        let alikePool = KidsThing.all(in: groups[0])
        let alike = level == 1 || level == 3
            ? Array(repeating: KidsDraw.one(of: alikePool, using: &generator), count: count - 1)
            : KidsDraw.pick(count - 1, from: alikePool, using: &generator)
        let odd = KidsDraw.one(of: KidsThing.all(in: groups[1]), using: &generator)
        var items = alike.map { KidsItem(thing: $0) } + [KidsItem(thing: odd)]
        if level >= 5 {
            for i in items.indices { items[i].colour = KidsDraw.one(of: KidsColour.allCases, using: &generator) }
            if level >= 6 { items[count - 1].colour = items[0].colour }
        }
        let order = KidsDraw.shuffled(Array(items.indices), using: &generator)
        let shown = order.map { items[$0] }
        return KidsDraw.question(
            ask: "odd_one_out", level: level,
            picture: KidsPicture(scene: .oddOneOut, items: shown),
            options: shown.indices.map { KidsOption(value: String($0), thing: shown[$0].thing, colour: shown[$0].colour) },
            answer: String(order.firstIndex(of: count - 1)!))
    }
}
