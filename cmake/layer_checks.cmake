# The layers, enforced by the linker: each is linked once more as a shared library that may
# leave no symbol undefined (-Wl,--no-undefined), with only the layers below it and its own
# dependencies on its link line. A core file that calls into OpenCL, the device layer or the
# application, or a device file that calls the application, then fails the build, naming the
# symbol. Built with the default target; nothing links these shared libraries.
function(closure_layer_check name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "OBJECTS_OF;LINK")
  set(objects)
  foreach(target ${arg_OBJECTS_OF})
    list(APPEND objects $<TARGET_OBJECTS:${target}>)
  endforeach()
  add_library(${name} SHARED ${objects})
  set_target_properties(${name} PROPERTIES LINKER_LANGUAGE CXX)
  target_link_libraries(${name} PRIVATE ${arg_LINK})
  target_link_options(${name} PRIVATE -Wl,--no-undefined)
endfunction()

# Sanitized builds leave their runtime's symbols to the executable: no check there.
if(NOT CLOSURE_SANITIZE)
  # core: graphs, readers, host algorithms; what it may use is what its target links.
  closure_layer_check(closure_core_layer_check OBJECTS_OF closure_core
                      LINK Boost::headers ZLIB::ZLIB Threads::Threads TBB::tbb)
  # device: core below it, and dlopen (OpenCL is opened when first called).
  closure_layer_check(closure_device_layer_check OBJECTS_OF closure_device
                      LINK closure_core_layer_check ${CMAKE_DL_LIBS} Threads::Threads)
endif()
