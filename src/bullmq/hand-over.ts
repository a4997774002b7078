/**
 * Why a worker let go of a run without ending it (an abort reason): `close` when its worker closes
 * (the run goes back to the queue for another worker), `lost` when its job's lock was lost (BullMQ
 * may already have given the job to another worker: this one touches nothing).
 */
export class HandOver extends Error {
  readonly how: 'close' | 'lost';

  constructor(how: 'close' | 'lost') {
    super(how === 'close' ? 'The worker is closing' : "The worker lost the run's lock");
    this.name = 'HandOver';
    this.how = how;
  }
}
