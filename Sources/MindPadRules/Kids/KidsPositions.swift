/// Positions: things placed around a reference thing (a house, a tree, a
/// car or a ball), "which is on top / under / left / right / in front /
/// behind?"; an option is a thing (`{"value":"cat","thing":"cat"}`). Each
/// thing has its own place, so exactly one is at the place asked.
///
/// | level | things | places used | asked |
/// |-------|--------|-------------|-------|
/// | Ant   | 3 | top, under, left, right | top, under |
/// | Bee   | 3 | top, under, left, right | any of them |
/// | Cat   | 4 | top, under, left, right | any of them |
/// | Dog   | 4 | all six | any |
/// | Elephant | 4 | all six | left, right, front, behind |
/// | Fox   | 4, all of one group | all six | any |
public enum KidsPositions {
    static let plane: [KidsPlace] = [.top, .under, .left, .right]
    public static let places: [[KidsPlace]] = [plane, plane, plane, KidsPlace.allCases, KidsPlace.allCases, KidsPlace.allCases]
    public static let asked: [[KidsPlace]] = [[.top, .under], plane, plane, KidsPlace.allCases,
                                              [.left, .right, .front, .behind], KidsPlace.allCases]
    static let references: [KidsThing] = [.house, .tree, .car, .ball]

    static func question(level: Int, using generator: inout SeededGenerator) -> KidsQuestion {
        let count = KidsLevel.optionCount(level: level)
        let reference = KidsDraw.one(of: references, using: &generator)
        let place = KidsDraw.one(of: KidsLevel.pick(asked, level: level), using: &generator)
        let others = KidsDraw.pick(count - 1, from: KidsLevel.pick(places, level: level).filter { $0 != place }, using: &generator)
        let pool = KidsThing.allCases.filter { $0 != reference }
        let things: [KidsThing]
        if level >= 6 {
            let group = KidsDraw.one(of: [KidsThing.Group.food, .animal], using: &generator)
            things = KidsDraw.pick(count, from: pool.filter { $0.group == group }, using: &generator)
        } else {
            things = KidsDraw.pick(count, from: pool, using: &generator)
        }
        let items = KidsDraw.shuffled(zip(things, [place] + others).map { KidsItem(thing: $0, place: $1) }, using: &generator)
        return KidsDraw.question(
            ask: "position_\(place.rawValue)", level: level,
            picture: KidsPicture(scene: .positions, items: items, reference: reference),
            options: items.map { KidsOption(value: $0.thing!.rawValue, thing: $0.thing) }, answer: things[0].rawValue)
    }
}
