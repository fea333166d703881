extension JSON {
    /// Compact JSON text, members in their order (`JSONWriter`: the one
    /// writer and its escapes). Non-finite numbers (which JSON cannot
    /// carry) are written as `null`.
    public var text: String {
        var out = JSONWriter()
        out.value(self)
        return out.text
    }
}
