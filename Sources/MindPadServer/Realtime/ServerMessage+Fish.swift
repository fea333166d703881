import Foundation
import MindPadJSON
import MindPadRules

extension ServerMessage {
    /// `{"type":"fish","question":"r1q2","fish":"3f2b…","reaction":"swim","correct":3}`:
    /// the racer's pet fish reacts to their right answers (`FishReaction`),
    /// sent right after the `graded` that changed it.
    static func fish(question: QuestionID, fish: UUID, reaction: FishReaction, correct: Int) -> OutgoingMessage {
        OutgoingMessage("fish") { out in
            out.field("question", question.wire)
            out.field("fish", fish.uuidString.lowercased())
            out.field("reaction", reaction.rawValue)
            out.field("correct", correct)
        }
    }
}
