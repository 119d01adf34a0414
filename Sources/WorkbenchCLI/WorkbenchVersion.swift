/// The version of the workbench: printed by `mpin-workbench --version`, written into benchmark output.
public enum WorkbenchVersion {
    public static let current = "0.1.0"
}
