import MindPadHTTP
import Foundation
import Logging
import MindPadJSON
import MindPadRules
import MindPadRecognition
import MindPadStorage
import Synchronization

/// The HTTP API (docs/openapi.yaml): scores, players, their fish
/// (`ScoresAPI+Fish.swift`), their level progress (`ScoresAPI+Levels.swift`),
/// their path-finder rounds (`ScoresAPI+PathRounds.swift`), race replays
/// and the operator's suspicious races (`ScoresAPI+Races.swift`), sign-in
/// on another device (`ScoresAPI+SignIn.swift`) and the weather. Handlers run on the service
/// thread and only parse, check and dispatch; every query runs on a
/// database worker, which answers through the `HTTPResponder`.
final class ScoresAPI: Sendable {
    let pool: DatabaseWorkerPool
    let directory: any PlayerDirectory
    let adminToken: String?
    let logger: Logger
    let now: @Sendable () -> Date
    let metrics: ServerMetrics
    /// Failed token checks per purpose and client address; touched from the
    /// service thread and from database workers (a wrong player token is
    /// found there).
    let limiter: Mutex<AuthFailureLimiter>
    /// Whose `X-Forwarded-For` names the client (the limiter's and the
    /// audit's address).
    let trustedProxies: TrustedProxies

    let games: GameRegistry
    /// The routes of features and kinds beside the API's own resources: the
    /// classroom's (`ClassroomRoutes`) and the kinds' (`GameRegistry.routes`).
    let routes: [APIRoute]
    /// PBKDF2 rounds for new teachers' passwords (`PasswordHash`).
    let passwordIterations: Int
    /// `GET /api/weather`: answers at once, refreshes in the background.
    let weather: WeatherService
    /// What the operator's suspicious-races list flags.
    let suspicion: SuspicionThresholds
    /// Reads a class's wrong answers' strokes again, without the pupil's
    /// learned hand, for its report (`ClassReport`); nil: not read again.
    let recognizer: Recognizer?
    static let maxLimit = 100

    init(pool: DatabaseWorkerPool, directory: any PlayerDirectory, adminToken: String?, games: GameRegistry,
         metrics: ServerMetrics, weather: WeatherService, trustedProxies: TrustedProxies = .none, authFailureLimit: Int = 5,
         suspicion: SuspicionThresholds = SuspicionThresholds(), passwordIterations: Int = PasswordHash.defaultIterations,
         recognizer: Recognizer? = nil, logger: Logger, now: @escaping @Sendable () -> Date = { Date() }) {
        self.suspicion = suspicion
        self.recognizer = recognizer
        self.passwordIterations = passwordIterations
        let routes = ClassroomRoutes.all + games.routes
        precondition(routes.indices.allSatisfy { i in routes[..<i].allSatisfy { !$0.overlaps(routes[i]) } },
                     "two routes under /api match the same path")
        self.routes = routes
        self.trustedProxies = trustedProxies
        self.weather = weather
        limiter = Mutex(AuthFailureLimiter(maxFailures: authFailureLimit))
        self.games = games
        self.metrics = metrics
        self.pool = pool
        self.directory = directory
        self.adminToken = adminToken
        self.logger = logger
        self.now = now
    }

    /// Answers `/api/…` requests; false when the path is not one of ours.
    /// A method the resource lacks is 405 with `Allow`, whatever its body.
    func handle(_ request: HTTPRequest, _ responder: HTTPResponder) -> Bool {
        guard request.pathSegments.first == "api" else { return false }
        guard let route = ScoresRoute(request.pathSegments.dropFirst()) else {
            return handleFeatureRoute(request, responder)
        }
        guard route.allowed.contains(request.method) else {
            responder.respond(.methodNotAllowed(allow: route.allowed))
            return true
        }
        switch route {
        case .games: responder.respond(.json(200, ScoresJSON.Catalog(games.games)))
        case .leaderboard: leaderboard(request, responder)
        case .players: register(request, responder)
        case .profile(let name): profile(name: name, request, responder)
        case .ownReset(let name): resetOwn(name: name, request, responder)
        case .adminReset: adminReset(request, responder)
        case .fishList(let name) where request.method == .post: createFish(name: name, request, responder)
        case .fishList(let name): listFish(name: name, request, responder)
        case .fish(let name, let id): deleteFish(name: name, id: id, request, responder)
        case .fishKinds: responder.respond(.json(200, FishJSON.Kinds(kinds: FishKind.all)))
        case .weather: responder.respond(.json(200, WeatherJSON(weather.current())))
        case .levels(let name): listLevels(name: name, request, responder)
        case .levelsReset(let name): resetLevels(name: name, request, responder)
        case .race(let id): race(id: id, request, responder)
        case .suspiciousRaces: suspiciousRaces(request, responder)
        case .signInCodes(let name): createSignInCode(name: name, request, responder)
        case .signIn: signIn(request, responder)
        }
        return true
    }

    /// A resource of a feature's or a game kind's collection (`routes`);
    /// false when none is at this path.
    private func handleFeatureRoute(_ request: HTTPRequest, _ responder: HTTPResponder) -> Bool {
        let segments = request.pathSegments.dropFirst()
        for route in routes {
            guard let captured = route.captures(segments) else { continue }
            guard route.allowed.contains(request.method) else {
                responder.respond(.methodNotAllowed(allow: route.allowed))
                return true
            }
            route.handle(self, captured, request, responder)
            return true
        }
        return false
    }

    // MARK: Reading

    /// The game a request names with `game` (MindPad when it names none),
    /// or the 400 that says it does not exist.
    func game(_ name: String?) throws(Refusal) -> GameInfo {
        let identifier = name ?? GameRegistry.defaultGame
        guard let info = games.info(identifier) else {
            let known = games.games.map(\.identifier).joined(separator: ", ")
            throw Refusal(.error(400, code: "unknown_game", message: "game must be one of \(known)"))
        }
        return info
    }

    /// A request refused before any query runs.
    struct Refusal: Error {
        let response: HTTPResponse
        init(_ response: HTTPResponse) { self.response = response }
    }

    /// `mode` checked against the modes `game` offers.
    private static func mode(_ mode: String, of game: GameInfo) -> HTTPResponse? {
        guard game.modes.contains(where: { $0.rawValue == mode }) else {
            let offered = game.modes.map(\.rawValue).joined(separator: ", ")
            return .error(400, code: "unknown_mode", message: "mode must be one of \(offered) for \(game.identifier)")
        }
        return nil
    }

    /// Each of `names` at most once in the query: a repeat would leave one
    /// of its values unread.
    static func refuseRepeats(_ names: [String], in request: HTTPRequest) throws(Refusal) {
        for name in names where request.queryItems.filter({ $0.name == name }).count > 1 {
            throw Refusal(.error(400, code: "duplicate_parameter", message: "\(name) is given more than once"))
        }
    }

    private func leaderboard(_ request: HTTPRequest, _ responder: HTTPResponder) {
        let info: GameInfo
        do {
            try Self.refuseRepeats(["game", "mode", "period", "limit", "around"], in: request)
            info = try game(request.query["game"])
        } catch {
            return responder.respond(error.response)
        }
        let mode = request.query["mode"] ?? info.modes[0].rawValue
        if let refusal = Self.mode(mode, of: info) { return responder.respond(refusal) }
        let gameID = info.identifier
        guard let period = LeaderboardPeriod(rawValue: request.query["period"] ?? "all") else {
            return responder.respond(.error(400, code: "unknown_period", message: "period must be all, day or week"))
        }
        let limitText = request.query["limit"] ?? "100"
        guard let limit = Int(limitText), (1...Self.maxLimit).contains(limit) else {
            return responder.respond(.error(400, code: "bad_limit", message: "limit must be a whole number from 1 to \(Self.maxLimit)"))
        }
        var around: PlayerName?
        if let raw = request.query["around"] {
            do { around = try PlayerName(validating: raw) } catch {
                return responder.respond(.error(400, code: "invalid_name", message: error.description))
            }
        }
        let at = now()
        run(responder, within: Self.readDeadline) { [around] connection in
            let store = ScoreStore(connection)
            var playerID: Int64?
            if let around {
                guard let found = try store.findPlayer(nameKey: around.key) else {
                    return .error(404, code: "unknown_player", message: "no player is called \(around.display)")
                }
                playerID = found.player.id
            }
            let board = try store.leaderboard(game: gameID, mode: mode, period: period, limit: limit, at: at, aroundPlayer: playerID)
            return .json(200, ScoresJSON.Board(board, includeAround: around != nil, info: info))
        }
    }

    private func profile(name raw: String, _ request: HTTPRequest, _ responder: HTTPResponder) {
        let name: PlayerName
        let info: GameInfo
        do {
            name = try Self.playerName(raw)
            info = try game(request.query["game"])
        } catch {
            return responder.respond(error.response)
        }
        runForPlayer(name, responder) { connection, player in
            .json(200, ScoresJSON.Profile(try ScoreStore(connection).profile(of: player, game: info.identifier), game: info))
        }
    }

    /// The name a public read's path names, or the 400 `invalid_name`
    /// for one that cannot be anyone's.
    static func playerName(_ raw: String) throws(Refusal) -> PlayerName {
        do { return try PlayerName(validating: raw) } catch {
            throw Refusal(.error(400, code: "invalid_name", message: error.description))
        }
    }

    /// Runs a public read (no token) about the player called `name` on a
    /// database worker, within the read deadline: 404 `unknown_player`
    /// when nobody is.
    func runForPlayer(_ name: PlayerName, _ responder: HTTPResponder,
                      _ work: @escaping @Sendable (PostgresConnection, PlayerRecord) throws -> HTTPResponse) {
        run(responder, within: Self.readDeadline) { connection in
            guard let found = try ScoreStore(connection).findPlayer(nameKey: name.key) else {
                return .error(404, code: "unknown_player", message: "no player is called \(name.display)")
            }
            return try work(connection, found.player)
        }
    }

    // MARK: Players

    private func register(_ request: HTTPRequest, _ responder: HTTPResponder) {
        guard let body = Self.jsonObject(request.body), let raw = body["name"]?.string else {
            return responder.respond(.error(400, code: "bad_json", message: #"send {"name": "…"}"#))
        }
        let name: PlayerName
        do { name = try PlayerName(validating: raw) } catch {
            return responder.respond(.error(400, code: "invalid_name", message: error.description))
        }
        directory.register(name: name.display, nameKey: name.key) { result in
            switch result {
            case .success(let (player, token)):
                responder.respond(.json(201, ScoresJSON.Registered(name: player.name, token: token)))
            case .failure(.nameTaken):
                responder.respond(.error(409, code: "name_taken", message: "that name is taken"))
            case .failure(.wrongToken), .failure(.unavailable):
                responder.respond(Self.unavailable)
            }
        }
    }

    private func resetOwn(name raw: String, _ request: HTTPRequest, _ responder: HTTPResponder) {
        let player: PlayerCredentials
        // `?game=`: only that game's boards; without it, every game's.
        // `?levels=true`: the level progress of the same game(s) too.
        var gameID: String?
        let levels: Bool
        do {
            player = try credentials(name: raw, request)
            try Self.refuseRepeats(["game", "levels"], in: request)
            if let name = request.query["game"] { gameID = try game(name).identifier }
            levels = try Self.levelsFlag(request.query["levels"])
        } catch {
            return responder.respond(error.response)
        }
        runAsPlayer(player, responder) { [gameID] connection, found in
            let reset = try ScoreStore(connection).resetOwn(playerID: found.id, game: gameID, levels: levels)
            return .json(200, ScoresJSON.OwnReset(name: found.name, highscores_reset: reset.bests,
                                                  levels_reset: levels ? reset.levels : nil))
        }
    }

    // MARK: Player tokens

    /// What a request says about whose it is, checked as far as it can be
    /// without the database.
    struct PlayerCredentials {
        let name: PlayerName
        let token: String
        /// The client's address, for the failure limiter.
        let client: String
    }

    /// The player a request names in its path and the token it brings:
    /// 401 without a token (no token is no guess: never counted), 429 while
    /// this client is blocked from guessing, 400 for a name that cannot be
    /// anyone's.
    func credentials(name raw: String, _ request: HTTPRequest) throws(Refusal) -> PlayerCredentials {
        guard let token = request.bearerToken else {
            throw Refusal(Self.unauthorized("send the player's token as Authorization: Bearer <token>"))
        }
        let client = trustedProxies.clientAddress(of: request)
        if let wait = limiter.withLock({ $0.retryAfter(.playerToken, client, now: now()) }) {
            throw Refusal(Self.tooMany(wait))
        }
        do {
            return PlayerCredentials(name: try PlayerName(validating: raw), token: token, client: client)
        } catch {
            throw Refusal(.error(400, code: "invalid_name", message: error.description))
        }
    }

    /// Runs `work` on a database worker for the player `credentials` name,
    /// once their token is proven: 404 for an unknown name, 401 (counted
    /// against the client) for a wrong token. Every endpoint that acts as
    /// a player goes through here.
    func runAsPlayer(_ credentials: PlayerCredentials, _ responder: HTTPResponder, within: Duration? = nil,
                     _ work: @escaping @Sendable (PostgresConnection, PlayerRecord) throws -> HTTPResponse) {
        let (name, token, client) = (credentials.name, credentials.token, credentials.client)
        run(responder, within: within, onAuthFailure: { [weak self] in self?.noteFailure(.playerToken, client) }) { connection in
            switch try ScoreStore(connection).authenticate(nameKey: name.key, token: token) {
            case .unknownPlayer: return .error(404, code: "unknown_player", message: "no player is called \(name.display)")
            case .wrongToken: return Self.unauthorized("wrong token for this player")
            case .player(let player): return try work(connection, player)
            }
        }
    }

    // MARK: Admin

    /// The operator's token checked, for every `/api/admin/…` endpoint:
    /// the client's address (for the audit) when it is right, else the
    /// refusal: 503 without a configured token, 401 without or with a
    /// wrong one (counted), 429 while this client is blocked.
    func adminClient(_ request: HTTPRequest) throws(Refusal) -> String {
        guard let expected = adminToken else {
            throw Refusal(.error(503, code: "admin_disabled", message: "admin endpoints are disabled: MINDPAD_ADMIN_TOKEN is not set"))
        }
        guard let given = request.bearerToken else {
            throw Refusal(Self.unauthorized("a valid admin token is required"))
        }
        let client = trustedProxies.clientAddress(of: request)
        if let wait = limiter.withLock({ $0.retryAfter(.adminReset, client, now: now()) }) {
            throw Refusal(Self.tooMany(wait))
        }
        // Compare hashes: equal lengths, so the time says nothing about the token.
        guard PlayerToken.constantTimeEquals(PlayerToken.hash(given), PlayerToken.hash(expected)) else {
            noteFailure(.adminReset, client)
            logger.warning("admin authentication failed", metadata: ["client": "\(client)", "peer": "\(request.peer)"])
            throw Refusal(Self.unauthorized("a valid admin token is required"))
        }
        limiter.withLock { $0.recordSuccess(.adminReset, client) }
        return client
    }

    private func adminReset(_ request: HTTPRequest, _ responder: HTTPResponder) {
        let client: String
        do { client = try adminClient(request) } catch { return responder.respond(error.response) }
        let body: JSON
        if request.body.isEmpty {
            body = .object([])
        } else if let parsed = Self.jsonObject(request.body) {
            body = parsed
        } else {
            return responder.respond(.error(400, code: "bad_json", message: "the body must be a JSON object"))
        }
        // `game` absent: every game's boards; `mode` then applies to each.
        var info: GameInfo?
        if let value = body["game"], !value.isNull {
            guard let name = value.string else {
                return responder.respond(.error(400, code: "unknown_game", message: "game must be a game's identifier"))
            }
            do { info = try game(name) } catch { return responder.respond(error.response) }
        }
        var mode: String?
        if let value = body["mode"], !value.isNull {
            let allModes = Set((info.map { [$0] } ?? games.games).flatMap(\.modes).map(\.rawValue))
            guard let m = value.string, allModes.contains(m) else {
                return responder.respond(.error(400, code: "unknown_mode", message: "mode must be one of \(allModes.sorted().joined(separator: ", "))"))
            }
            mode = m
        }
        let gameID = info?.identifier
        var player: PlayerName?
        if let value = body["player"], !value.isNull {
            guard let raw = value.string else {
                return responder.respond(.error(400, code: "invalid_name", message: "player must be a name"))
            }
            do { player = try PlayerName(validating: raw) } catch {
                return responder.respond(.error(400, code: "invalid_name", message: error.description))
            }
        }
        var levels = false
        if let value = body["levels"], !value.isNull {
            guard let flag = value.bool else {
                return responder.respond(Self.badLevels)
            }
            levels = flag
        }
        let requester = client.isEmpty ? "unknown" : client
        let logger = self.logger
        run(responder) { [player, mode, gameID, levels] connection in
            let store = ScoreStore(connection)
            var scope = ResetScope.all
            if let player {
                guard let found = try store.findPlayer(nameKey: player.key) else {
                    return .error(404, code: "unknown_player", message: "no player is called \(player.display)")
                }
                scope = mode.map { .playerMode(id: found.player.id, name: found.player.name, mode: $0) }
                    ?? .player(id: found.player.id, name: found.player.name)
            } else if let mode {
                scope = .mode(mode)
            }
            let reset = try store.adminReset(scope, game: gameID, levels: levels, requester: requester)
            let label = scope.label
            logger.notice("admin reset", metadata: [
                "scope": "\(label)", "game": "\(gameID ?? "-")", "mode": "\(mode ?? "-")", "player": "\(player?.display ?? "-")",
                "requester": "\(requester)", "rows": "\(reset.rows)", "levels": "\(levels ? String(reset.levels) : "-")",
            ])
            return .json(200, ScoresJSON.AdminReset(scope: label, game: gameID, mode: mode, player: player?.display,
                                                    highscores_reset: reset.bests, rows_changed: reset.rows,
                                                    levels_reset: levels ? reset.levels : nil))
        }
    }

    // MARK: Helpers

    func noteFailure(_ purpose: AuthPurpose, _ client: String) {
        let at = now()
        limiter.withLock { $0.recordFailure(purpose, client, now: at) }
    }

    /// How long a read may take, queueing included, before it is answered
    /// 503: a database that hangs gets its clients an answer within 2 s.
    static let readDeadline: Duration = .milliseconds(1500)

    /// Runs `work` on a database worker and answers with its response; a
    /// database that is away, or that has not answered `within` (reads
    /// only: a write answered early might still happen), answers 503. A 401
    /// from `work` is reported to `onAuthFailure`.
    func run(_ responder: HTTPResponder, within: Duration? = nil, onAuthFailure: (@Sendable () -> Void)? = nil,
                     _ work: @escaping @Sendable (PostgresConnection) throws -> HTTPResponse) {
        let logger = self.logger
        let metrics = self.metrics
        let queued = ContinuousClock.now
        pool.run(work, within: within) { result in
            metrics.databaseQuery("scores_api", ContinuousClock.now - queued)
            switch result {
            case .success(let response):
                if response.status == 401 { onAuthFailure?() }
                responder.respond(response)
            case .failure(let error) where error.isTransient:
                responder.respond(Self.unavailable)
            case .failure(let error):
                logger.error("scores query failed", metadata: ["error": "\(error.debugDescription)"])
                responder.respond(.error(500, code: "internal", message: "internal error"))
            }
        }
    }

    static let unavailable = HTTPResponse.error(503, code: "database_unavailable",
                                                message: "scores are unavailable for a moment; try again")

    static func unauthorized(_ message: String) -> HTTPResponse {
        var r = HTTPResponse.error(401, code: "unauthorized", message: message)
        r.headers.append(("www-authenticate", #"Bearer realm="mindpad""#))
        return r
    }

    static func tooMany(_ seconds: Int) -> HTTPResponse {
        var r = HTTPResponse.error(429, code: "too_many_attempts",
                                   message: "too many failed attempts; try again in \(seconds) s")
        r.headers.append(("retry-after", String(seconds)))
        return r
    }

    /// A request body that is one JSON object, or nil.
    static func jsonObject(_ body: [UInt8]) -> JSON? {
        guard !body.isEmpty, let json = try? JSON.parse(body), case .object = json else { return nil }
        return json
    }
}
