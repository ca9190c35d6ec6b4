import ArgumentParser
import Multihead

/// `--rotation normal|left|right|inverted` on the command line, `"rotation": "left"` on the socket.
extension MonitorRotation: ExpressibleByArgument, ControlFieldValue {
    package static var fieldType: ControlFieldType { .string }
    package var fieldValue: JSONText? { .string(rawValue) }
}
