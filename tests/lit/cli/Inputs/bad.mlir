module {
  %0 = "host.load"() {name = "x"} : () -> !host.obj
  %1 = bogus
}
