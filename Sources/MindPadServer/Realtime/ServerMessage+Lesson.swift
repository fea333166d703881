import MindPadJSON
import MindPadRecognition
import MindPadRules

/// The messages of a lesson (issue 46, docs/protocol.md "Lessons"): what
/// the teacher conducting a lesson's room hears beside the room's own
/// messages, and the pads of the pupils drawn live on the wall.
extension ServerMessage {
    /// The lesson as the teacher sees it: its room, class and settings.
    /// `instance`: in a cluster, the instance the lesson lives on (the
    /// projector reconnects with `/ws?instance=…`, as a member does).
    static func lesson(code: String, instance: String?, classID: String, className: String, locked: Bool,
                       kicked: [String]) -> OutgoingMessage {
        OutgoingMessage("lesson") { out in
            out.field("room", code)
            out.field("instance", orNull: instance)
            out.field("class", classID)
            out.field("class_name", className)
            out.field("locked", locked)
            out.key("kicked")
            out.array(kicked) { out, name in out.string(name) }
        }
    }

    /// The lesson is over (the teacher ended it, or was away too long).
    static func lessonEnded(code: String) -> OutgoingMessage {
        OutgoingMessage("lesson_ended") { $0.field("room", code) }
    }

    /// A pupil was sent a question: their pad on the wall starts empty
    /// under its prompt.
    static func padQuestion(player: PlayerID, question: QuestionID, prompt: JSON) -> OutgoingMessage {
        OutgoingMessage("pad_question") { out in
            out.field("player", player.rawValue)
            out.field("question", question.wire)
            out.field("prompt", prompt)
        }
    }

    /// A batch of a pupil's strokes, as the server took it (`points`).
    static func padPoints(player: PlayerID, question: QuestionID, stroke: Int, points: [StrokePoint]) -> OutgoingMessage {
        OutgoingMessage("pad_points") { out in
            out.field("player", player.rawValue)
            out.field("question", question.wire)
            out.field("stroke", stroke)
            out.key("points")
            out.array(points) { out, p in
                out.beginArray()
                out.double(p.x.rounded())
                out.double(p.y.rounded())
                out.endArray()
            }
        }
    }

    /// A pupil's pad emptied (`clear`), or its last stroke taken back
    /// (`undo`: `stroke`).
    static func padCleared(player: PlayerID, question: QuestionID, undoneStroke: Int?) -> OutgoingMessage {
        OutgoingMessage("pad_clear") { out in
            out.field("player", player.rawValue)
            out.field("question", question.wire)
            out.field("stroke", undoneStroke)
        }
    }

    /// What the reader reads in a pupil's pad as it stands (their live
    /// `guess`): `read` the digit or number, `?` where unsure.
    static func padGuess(player: PlayerID, question: QuestionID, read: String, confidence: Double) -> OutgoingMessage {
        OutgoingMessage("pad_guess") { out in
            out.field("player", player.rawValue)
            out.field("question", question.wire)
            out.field("read", read)
            out.field("confidence", rounded(confidence))
        }
    }

    /// A pupil's answer was graded: what was taken as the answer, right or
    /// wrong, how sure the reading was and how it came in.
    static func padGraded(player: PlayerID, question: QuestionID, answer: JSON, expected: JSON?, correct: Bool,
                          confidence: Double?, score: Int) -> OutgoingMessage {
        OutgoingMessage("pad_graded") { out in
            out.field("player", player.rawValue)
            out.field("question", question.wire)
            out.field("answer", answer)
            out.field("expected", expected)
            out.field("correct", correct)
            out.field("confidence", confidence.map(rounded))
            out.field("score", score)
        }
    }
}

extension DrawingReading {
    /// The reading as the teacher's wall shows it: the digit or number,
    /// `?` for each place the reader is unsure of or would offer a choice.
    var shown: String {
        switch self {
        case .digit(let r): r.unsure || !r.choices.isEmpty ? "?" : String(r.digit)
        case .number(let n):
            String(zip(n.number, n.digits).map { $1.unsure || !$1.choices.isEmpty ? "?" : $0 })
        }
    }
}
