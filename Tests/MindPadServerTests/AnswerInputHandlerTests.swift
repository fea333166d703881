import MindPadJSON
import MindPadRules
import Testing
@testable import MindPadServer

/// One handler per answer input (issue 44): what each takes typed or tapped
/// where a drawing could be, and what it tells a client that draws where it
/// may not. In memory; the protocol suites play the same through the hub.
@Suite struct AnswerInputHandlerTests {
    let game = GameRegistry.standard.info("mindpad")!

    @Test func typedAnswersCountAsEachInputSays() throws {
        #expect(try AnswerInput.drawnDigit.handler.typed(.string("7")).get() == .wire(.int(7), keypad: true))
        #expect(try AnswerInput.drawnDigit.handler.typed(.int(0)).get() == .wire(.int(0), keypad: true))
        for bad: JSON in [.string("12"), .int(10), .int(-1), .string(""), .bool(true)] {
            #expect((try? AnswerInput.drawnDigit.handler.typed(bad).get()) == nil, "\(bad)")
        }
        #expect(try AnswerInput.drawnNumber.handler.typed(.string("3240")).get() == .wire(.string("3240"), keypad: true))
        for bad: JSON in [.string(""), .string("12a"), .string("123456789"), .int(3240)] {
            #expect((try? AnswerInput.drawnNumber.handler.typed(bad).get()) == nil, "\(bad)")
        }
        // A tap is not typed; a move's guess on the keypad is.
        #expect(try AnswerInput.choiceOrDigit.handler.typed(.string("5")).get() == .wire(.string("5"), keypad: false))
        #expect(try AnswerInput.move.handler.typed(.int(24)).get() == .wire(.int(24), keypad: true))
    }

    @Test func strokesWhereNoCanvasIsOpenAreToldOnlyWhereItHelps() {
        // Handwriting: a batch for an old question, late on the wire: nothing said.
        for input in [AnswerInput.drawnDigit, .drawnNumber] {
            #expect(input.handler.notDrawn(game: game, current: true) == nil)
        }
        // A tap game never draws; the others only on their current question.
        #expect(AnswerInput.choice.handler.notDrawn(game: game, current: false)?.contains("not answered by drawing") == true)
        for input in [AnswerInput.choiceOrDigit, .move] {
            #expect(input.handler.notDrawn(game: game, current: true) != nil)
            #expect(input.handler.notDrawn(game: game, current: false) == nil)
        }
        // Only a choice-or-digit question asks for a tap or a digit when nothing came.
        #expect(AnswerInput.allCases.filter { $0.handler.nothingSubmitted != nil } == [.choiceOrDigit])
    }
}

extension SubmittedAnswer: Equatable {
    public static func == (a: SubmittedAnswer, b: SubmittedAnswer) -> Bool {
        switch (a, b) {
        case (.wire(let x, let kx), .wire(let y, let ky)): x == y && kx == ky
        default: false
        }
    }
}
