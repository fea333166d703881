/// `GET /api/weather`'s answer (docs/openapi.yaml): `observed_at` is
/// written as null for the clock, never left out.
struct WeatherJSON: Encodable {
    let answer: WeatherAnswer

    init(_ answer: WeatherAnswer) { self.answer = answer }

    private enum Keys: String, CodingKey { case look, source, place, observed_at }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(answer.look.rawValue, forKey: .look)
        try c.encode(answer.source, forKey: .source)
        try c.encode(answer.place, forKey: .place)
        if let at = answer.observedAt {
            try c.encode(ScoresJSON.timestamp(Int64(at.timeIntervalSince1970 * 1000)), forKey: .observed_at)
        } else {
            try c.encodeNil(forKey: .observed_at)
        }
    }
}
