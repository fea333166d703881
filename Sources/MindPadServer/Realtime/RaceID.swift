/// A race's id (`race` on the wire, `game_results.race_id`): 12 characters
/// of `[a-z0-9]` (36^12 ≈ 4.7 × 10^18), drawn when a round starts. Always
/// from the system's generator, never the hub's (which tests seed): ids
/// must differ across server restarts, and a replay link must not be
/// guessable from the room code or from other ids.
enum RaceID {
    static let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")
    static let length = 12

    static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        return String((0..<length).map { _ in alphabet.randomElement(using: &generator)! })
    }
}
