/// The kinds of pet fish a player may keep. The web client draws one SVG
/// per kind (`web/img/fish/<kind>.svg`), so a kind is added here and there
/// together; the database only checks the identifier's shape, so a kind
/// taken away later leaves existing fish readable.
enum FishKind {
    /// In the order a client offers them.
    static let all = ["goldfish", "clownfish", "angelfish", "pufferfish", "betta"]
}
