// Rows of a query handed one by one to a C++ consumer, as the executor makes them (Spi::stream): neither SPI nor
// the consumer holds the result. The consumer's calls run under guarded_callback, so a C++ exception or a
// PostgreSQL error in them crosses the executor's frames as a PostgreSQL error and is rethrown to the caller.
#pragma once

#include <string>

#include "boundary.hpp"
#include "spi.hpp"

namespace anon::pg {

namespace row_stream_detail {

// A DestReceiver whose first member PostgreSQL calls, and the consumer it serves.
template <typename Consumer>
struct Receiver {
    DestReceiver pub;
    Consumer* consumer;
};

template <typename Consumer>
Consumer& consumer_of(DestReceiver* self) {
    return *reinterpret_cast<Receiver<Consumer>*>(self)->consumer;
}

template <typename Consumer>
bool receive(TupleTableSlot* slot, DestReceiver* self) {
    Consumer& consumer = consumer_of<Consumer>(self);
    guarded_callback([&] { consumer.add(slot); });
    return true;
}

template <typename Consumer>
void start(DestReceiver* self, int, TupleDesc desc) {
    Consumer& consumer = consumer_of<Consumer>(self);
    guarded_callback([&] { consumer.start(desc); });
}

inline void end(DestReceiver*) {}

}  // namespace row_stream_detail

// Runs `sql` and calls consumer.start(desc) with the result's row type, then consumer.add(slot) for each row.
// Call at a C++ boundary, within an SPI connection.
template <typename Consumer>
void stream_rows(Spi& spi, const std::string& sql, Consumer& consumer) {
    row_stream_detail::Receiver<Consumer> receiver{};
    receiver.pub.receiveSlot = row_stream_detail::receive<Consumer>;
    receiver.pub.rStartup = row_stream_detail::start<Consumer>;
    receiver.pub.rShutdown = row_stream_detail::end;
    receiver.pub.rDestroy = row_stream_detail::end;
    receiver.pub.mydest = DestNone;
    receiver.consumer = &consumer;
    spi.stream(sql, &receiver.pub);
}

}  // namespace anon::pg
