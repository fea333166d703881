import MindPadStorage

/// JSON shapes of the fish API (docs/openapi.yaml).
enum FishJSON {
    struct Fish: Encodable {
        let id: String
        let name: String
        let kind: String
        let best_score: Int
        let created_at: String

        init(_ f: FishRecord) {
            (id, name, kind, best_score) = (f.id, f.name, f.kind, f.bestScore)
            created_at = ScoresJSON.timestamp(f.createdAtMs)
        }
    }

    struct List: Encodable {
        let fish: [Fish]
    }

    struct Kinds: Encodable {
        let kinds: [String]
    }
}
