// `import MultiheadGL` gives OpenGL ES 3 and EGL as their headers declare them (glClearColor,
// GL_COLOR_BUFFER_BIT, …), and the model (`View`, `Window`, `Screen`).
@_exported import CEGL
@_exported import Multihead
