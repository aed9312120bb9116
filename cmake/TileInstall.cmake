# `cmake --install`: the tools, libtile.so with include/tile/Tile.h, and a
# CMake package, so that a project says
#
#   find_package(Tile REQUIRED)
#   target_link_libraries(app PRIVATE Tile::Tile)
#   tile_add_kernel(app NAME add SOURCE add.tile SIGNATURES "...")
#
# (cmake/TileKernels.cmake defines tile_add_kernel; examples/ uses both).
include(CMakePackageConfigHelpers)

set(TILE_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/Tile)
install(TARGETS Tile tile-compile EXPORT TileTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS tile-run tile-opt RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES include/tile/Tile.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/tile)
install(EXPORT TileTargets NAMESPACE Tile:: DESTINATION ${TILE_CMAKE_DIR})
configure_package_config_file(cmake/TileConfig.cmake.in
  ${PROJECT_BINARY_DIR}/TileConfig.cmake
  INSTALL_DESTINATION ${TILE_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/TileConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/TileConfig.cmake
  ${PROJECT_BINARY_DIR}/TileConfigVersion.cmake cmake/TileKernels.cmake
  DESTINATION ${TILE_CMAKE_DIR})
