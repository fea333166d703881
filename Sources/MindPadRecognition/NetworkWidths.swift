/// How wide the layers of a mindpad-cnn-v1 network are: conv1, conv2 and
/// conv3's output channels and fc1's units. The layers themselves (3×3
/// convolutions, same, same and valid, 2×2 max pools after the first two,
/// conv3's 5×5 output flattened into fc1) are the same at any widths.
struct NetworkWidths: Equatable, Sendable {
    var conv1: Int
    var conv2: Int
    var conv3: Int
    var hidden: Int

    /// mindpad-cnn-v1 as it was first shipped: 57,802 weights.
    static let v1 = NetworkWidths(conv1: 8, conv2: 16, conv3: 32, hidden: 64)

    /// fc1's inputs: conv3's 5×5 output.
    var features: Int { 25 * conv3 }

    /// Multiply-adds of one image, dense, with 10 outputs.
    var multiplyAdds: Int {
        28 * 28 * conv1 * 9 + 14 * 14 * conv2 * 9 * conv1 + 5 * 5 * conv3 * 9 * conv2 + features * hidden + hidden * 10
    }

    /// Widths `DigitNetwork.forwardAnyWidth` runs: conv1 four channels at a
    /// time, the other layers 16 at a time, and a 64-bit mask of the
    /// non-zero channels of every position conv2 and conv3 read.
    var runnable: Bool {
        conv1 % 4 == 0 && (4...64).contains(conv1)
            && conv2 % 16 == 0 && (16...64).contains(conv2)
            && conv3 % 16 == 0 && (16...128).contains(conv3)
            && hidden % 16 == 0 && (16...256).contains(hidden)
    }

    /// Each layer at least as wide as in `other`.
    func holds(_ other: NetworkWidths) -> Bool {
        conv1 >= other.conv1 && conv2 >= other.conv2 && conv3 >= other.conv3 && hidden >= other.hidden
    }

    /// The widest of each layer of the two.
    func union(_ other: NetworkWidths) -> NetworkWidths {
        NetworkWidths(conv1: max(conv1, other.conv1), conv2: max(conv2, other.conv2),
                      conv3: max(conv3, other.conv3), hidden: max(hidden, other.hidden))
    }
}
