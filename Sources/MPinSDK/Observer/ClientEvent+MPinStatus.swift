extension ClientEvent.Status {
    /// The status an SDK call reports to its observer: the Milagro name of the code (`OK`,
    /// `INCORRECT_PIN`) and the message.
    public init(_ status: MPinStatus) {
        self.init(code: status.code.name, message: status.message)
    }
}
