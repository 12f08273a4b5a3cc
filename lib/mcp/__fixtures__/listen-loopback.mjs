/**
 * Preload (`node --import`) that binds every server the process starts to 127.0.0.1 and reports
 * the port on stderr as `LISTENING <port>`. server-everything's HTTP mode listens on all
 * interfaces and has no host option; tests must not open a port to the network.
 */
import net from 'node:net';

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  const [first] = args;
  if (typeof first === 'number' || (typeof first === 'string' && /^\d+$/.test(first))) {
    if (typeof args[1] !== 'string') args.splice(1, 0, '127.0.0.1');
    else args[1] = '127.0.0.1';
  } else if (first && typeof first === 'object' && first.path === undefined) {
    args[0] = { ...first, host: '127.0.0.1' };
  }
  this.once('listening', () => {
    const address = this.address();
    if (address && typeof address === 'object') process.stderr.write(`LISTENING ${address.port}\n`);
  });
  return listen.apply(this, args);
};
