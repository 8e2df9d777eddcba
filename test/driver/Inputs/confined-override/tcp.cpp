#include "channel.h"

Channel *DefaultChannel = nullptr;

// A socket round trip; no collective of the catalogue.
void TcpChannel::Barrier() {}
