// libtensorflow_framework.so.2: TensorFlow's release tarball ships its framework library beside
// libtensorflow.so.2, and programs name both on their link line (BART's Makefile links
// -ltensorflow_framework -ltensorflow). Rill's libtensorflow.so.2 holds the whole C API, so this
// library defines nothing: it is there so that such link lines resolve, and a program linked with
// it finds it at run time next to libtensorflow.so.2.
