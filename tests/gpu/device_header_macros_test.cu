// The macro-leak test of tests/unit compiled by the GPU compiler, as relocatable device code:
// the no-argument forms and every vendor branch of the device headers are expanded here.
#include "../unit/device_header_macros_test.cpp"
