import MindPadHTTP

/// A resource under `/api` that a feature (the classroom's
/// `ClassroomRoutes`) or a game kind brings with it (the path finder's
/// `players/{name}/path_rounds`, registered beside the kind,
/// `GameRegistry.register(_:routes:)`), so that the scores API never names
/// a kind. Matched on the decoded path segments after `/api`, after the
/// API's own resources; a method the resource lacks is 405 with `Allow`.
struct APIRoute: Sendable {
    /// The segments after `/api`; `{…}` matches any one segment, handed
    /// to `handle` in order (`["players", "{name}", "path_rounds"]`).
    let pattern: [String]
    let allowed: [HTTPMethod]
    /// The API (its pool, deadlines and refusals), the captured segments,
    /// the request and where to answer it.
    let handle: @Sendable (ScoresAPI, [String], HTTPRequest, HTTPResponder) -> Void

    /// The captured segments when `segments` is this resource, else nil.
    func captures(_ segments: some Collection<String>) -> [String]? {
        guard segments.count == pattern.count else { return nil }
        var captured: [String] = []
        for (part, segment) in zip(pattern, segments) {
            if part.hasPrefix("{") && part.hasSuffix("}") {
                captured.append(segment)
            } else if part != segment {
                return nil
            }
        }
        return captured
    }

    /// Whether two patterns can match the same path (a registration error).
    func overlaps(_ other: APIRoute) -> Bool {
        pattern.count == other.pattern.count && zip(pattern, other.pattern).allSatisfy { a, b in
            a == b || a.hasPrefix("{") || b.hasPrefix("{")
        }
    }
}
