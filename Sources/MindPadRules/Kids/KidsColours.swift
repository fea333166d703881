/// Colours: things painted in different colours, "which one is red?"; an
/// option is a colour (`{"value":"red","thing":"ball","colour":"red"}`).
/// The level widens the palette the colours come from; at Fox every option
/// is a different thing.
///
/// | level | options | colours from |
/// |-------|---------|--------------|
/// | Ant   | 3 | red, yellow, blue |
/// | Bee   | 3 | + green |
/// | Cat   | 4 | + orange, purple |
/// | Dog   | 4 | + pink, brown |
/// | Elephant | 4 | all ten (+ black, white) |
/// | Fox   | 4 | all ten, a different thing each |
public enum KidsColours {
    public static let palettes: [[KidsColour]] = {
        let basic: [KidsColour] = [.red, .yellow, .blue]
        let bee = basic + [.green]
        let cat = bee + [.orange, .purple]
        let dog = cat + [.pink, .brown]
        return [basic, bee, cat, dog, KidsColour.allCases, KidsColour.allCases]
    }()

    static func question(level: Int, using generator: inout SeededGenerator) -> KidsQuestion {
        let count = KidsLevel.optionCount(level: level)
        let colours = KidsDraw.pick(count, from: KidsLevel.pick(palettes, level: level), using: &generator)
        let things = level >= 6
            ? KidsDraw.pick(count, from: KidsThing.allCases, using: &generator)
            : Array(repeating: KidsDraw.one(of: KidsThing.allCases, using: &generator), count: count)
        let target = KidsDraw.one(of: colours, using: &generator)
        let options = zip(colours, things).map { KidsOption(value: $0.rawValue, thing: $1, colour: $0) }
        return KidsDraw.question(
            ask: "colour", level: level,
            picture: KidsPicture(scene: .colours, items: options.map { KidsItem(thing: $0.thing, colour: $0.colour) }, colour: target),
            options: options, answer: target.rawValue)
    }
}
