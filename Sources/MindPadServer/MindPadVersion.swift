/// The version reported by `/healthz` and `mindpad --version`.
public enum MindPadVersion {
    public static let current = "0.1.0"
}
