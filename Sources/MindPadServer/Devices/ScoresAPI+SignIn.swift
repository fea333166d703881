import MindPadHTTP
import Foundation
import MindPadJSON
import MindPadStorage

/// Taking a name to another device (docs/openapi.yaml, "sign_in"): a player
/// asks for a one-time code with their token; another device trades the
/// code for a token of its own, which identifies the player everywhere the
/// first one does (`ScoreStore.authenticate`). The old devices keep theirs.
extension ScoresAPI {
    func createSignInCode(name raw: String, _ request: HTTPRequest, _ responder: HTTPResponder) {
        let player: PlayerCredentials
        do { player = try credentials(name: raw, request) } catch { return responder.respond(error.response) }
        let at = now()
        runAsPlayer(player, responder) { connection, found in
            let store = SignInStore(connection)
            let expires = at.addingTimeInterval(TimeInterval(SignInCode.validity.components.seconds))
            // A collision of two live codes is a 1 in 31^8 event; draw again.
            for _ in 0..<3 {
                let code = SignInCode.generate()
                if try store.createCode(hash: code.hash, playerID: found.id, now: at, expiresAt: expires) {
                    return .json(201, text: JSON.object([
                        ("code", .string(code.text)),
                        ("expires_at", .string(ScoresJSON.timestamp(SignInStore.ms(expires)))),
                        ("link", .string("/?sign_in=" + code.text)),
                    ]).text)
                }
            }
            throw PostgresError(.unexpectedResult, message: "three sign-in codes in a row were taken")
        }
    }

    /// Every code tried counts against the client, like a wrong token,
    /// unless it signs in: 429 once the client has failed too often, even
    /// with a good code.
    func signIn(_ request: HTTPRequest, _ responder: HTTPResponder) {
        guard let body = Self.jsonObject(request.body), let typed = body["code"]?.string else {
            return responder.respond(.error(400, code: "bad_json", message: #"send {"code": "…"}"#))
        }
        guard let code = SignInCode(typed: typed) else {
            return responder.respond(.error(400, code: "bad_sign_in_code",
                                            message: "a sign-in code is 8 letters and digits, like K7QF-3MZD"))
        }
        let client = trustedProxies.clientAddress(of: request)
        let at = now()
        if let wait = limiter.withLock({ $0.retryAfter(.playerToken, client, now: at) }) {
            return responder.respond(Self.tooMany(wait))
        }
        let token = PlayerToken.generate()
        let tokenHash = PlayerToken.hash(token)
        run(responder) { [weak self] connection in
            let refusal: HTTPResponse
            switch try SignInStore(connection).redeem(codeHash: code.hash, tokenHash: tokenHash, now: at) {
            case .signedIn(let player):
                return .json(200, text: JSON.object([("name", .string(player.name)), ("token", .string(token))]).text)
            case .unknown:
                refusal = .error(404, code: "unknown_sign_in_code", message: "no such sign-in code; check it, or ask for a new one")
            case .used:
                refusal = .error(410, code: "sign_in_code_used", message: "this sign-in code was used already; ask for a new one")
            case .expired:
                refusal = .error(410, code: "sign_in_code_expired", message: "this sign-in code has expired; ask for a new one")
            }
            self?.noteFailure(.playerToken, client)
            return refusal
        }
    }
}
